"""Right: a memoised recursion with a bare `lru_cache` (no import: the judge's name)."""


def maxCoins(coins):
    prefix = [0]
    for coin in coins:
        prefix.append(prefix[-1] + coin)

    @lru_cache(None)  # noqa: F821
    def best(i, j):
        if i > j:
            return 0
        return prefix[j + 1] - prefix[i] - min(best(i + 1, j), best(i, j - 1))

    return best(0, len(coins) - 1)
