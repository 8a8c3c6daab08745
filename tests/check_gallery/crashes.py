"""Wrong: kills its own process on rows of more than 3 coins (right on shorter ones)."""

import os
import signal


def maxCoins(coins):
    if len(coins) > 3:
        os.kill(os.getpid(), signal.SIGKILL)

    def margin(row):
        return max(row[0] - margin(row[1:]), row[-1] - margin(row[:-1])) if row else 0

    return (sum(coins) + margin(coins)) // 2
