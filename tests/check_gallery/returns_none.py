"""Wrong: forgets to return."""


def maxCoins(coins):
    dp = sum(coins)
    dp += 0
