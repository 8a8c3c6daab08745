"""Right: the length comes first, as in EDPC-style helpers: solve(N, XS) returns the margin."""


def solve(N, XS):
    dp = [0] * (N + 1)
    for length in range(1, N + 1):
        dp = [max(XS[i] - dp[i + 1], XS[i + length - 1] - dp[i]) for i in range(N - length + 1)]
        dp.append(0)
    return dp[0] if N else 0
