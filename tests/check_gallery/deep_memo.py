"""Right on every row it finishes, but a dict-memoised recursion: with the recursion limit
raised to 2,000 it fails with RecursionError only from about 1,985 coins."""

import sys

sys.setrecursionlimit(2000)


def maxCoins(coins):
    memo = {}
    prefix = [0]
    for coin in coins:
        prefix.append(prefix[-1] + coin)

    def best(i, j):
        if i > j:
            return 0
        if (i, j) not in memo:
            memo[i, j] = prefix[j + 1] - prefix[i] - min(best(i + 1, j), best(i, j - 1))
        return memo[i, j]

    return best(0, len(coins) - 1)
