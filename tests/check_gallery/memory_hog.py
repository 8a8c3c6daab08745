"""Wrong: builds an enormous table for any row."""


def maxCoins(coins):
    table = [[0] * 10_000 for _ in range(10_000)]
    return table[0][0]
