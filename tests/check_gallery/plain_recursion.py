"""Correct but exponential: the recursion without memoisation."""


def maxCoins(coins):
    def best(i, j):
        if i > j:
            return 0
        a = coins[i] + min(best(i + 2, j), best(i + 1, j - 1))
        b = coins[j] + min(best(i + 1, j - 1), best(i, j - 2))
        return max(a, b)

    return best(0, len(coins) - 1)
