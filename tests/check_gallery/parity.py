"""Wrong: the odd/even parity strategy's sum."""


def maxCoins(coins):
    return max(sum(coins[0::2]), sum(coins[1::2]))
