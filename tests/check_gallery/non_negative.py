"""Wrong with negative coins: each choice is compared with a best that starts at 0."""


def maxCoins(coins):
    n = len(coins)
    best = {}
    for gap in range(n):
        for i in range(n - gap):
            j = i + gap
            result = 0
            for choice in (
                coins[i] + min(best.get((i + 2, j), 0), best.get((i + 1, j - 1), 0)),
                coins[j] + min(best.get((i + 1, j - 1), 0), best.get((i, j - 2), 0)),
            ):
                if choice > result:
                    result = choice
            best[i, j] = result
    return best[0, n - 1]
