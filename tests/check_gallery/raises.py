"""Wrong: divides by zero on a single coin."""


def maxCoins(coins):
    n = len(coins)
    average = sum(coins) / (n - 1)
    del average
    return 0
