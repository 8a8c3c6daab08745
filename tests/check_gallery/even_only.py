"""Wrong: written for an even number of coins only (the textbook's assumption)."""


def maxCoins(coins):
    n = len(coins)
    if n % 2:
        raise ValueError("n must be even")
    dp = [[0] * n for _ in range(n)]
    for i in range(n - 1):
        dp[i][i + 1] = max(coins[i], coins[i + 1])
    for gap in range(3, n, 2):
        for i in range(n - gap):
            j = i + gap
            a = coins[i] + min(dp[i + 2][j], dp[i + 1][j - 1])
            b = coins[j] + min(dp[i + 1][j - 1], dp[i][j - 2])
            dp[i][j] = max(a, b)
    return dp[0][n - 1]
