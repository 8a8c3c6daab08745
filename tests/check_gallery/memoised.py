"""Correct: memoised recursion (the seed notebook's "Implementation - Memoization")."""

import sys
from functools import cache

sys.setrecursionlimit(100_000)


def optimalStrategyOfGame(arr, n):
    @cache
    def best(i, j):
        if i > j:
            return 0
        a = arr[i] + min(best(i + 2, j), best(i + 1, j - 1))
        b = arr[j] + min(best(i + 1, j - 1), best(i, j - 2))
        return max(a, b)

    return best(0, n - 1)
