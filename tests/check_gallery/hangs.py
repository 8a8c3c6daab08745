"""Wrong: never returns."""


def maxCoins(coins):
    while True:
        pass
