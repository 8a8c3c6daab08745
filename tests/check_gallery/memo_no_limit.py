"""Correct on short rows, but a memoised recursion without a higher recursion limit."""

from functools import cache


def maxCoins(coins):
    prefix = [0]
    for coin in coins:
        prefix.append(prefix[-1] + coin)

    @cache
    def best(i, j):
        if i > j:
            return 0
        return prefix[j + 1] - prefix[i] - min(best(i + 1, j), best(i, j - 1))

    return best(0, len(coins) - 1)
