"""Correct in O(n): merge every peak with its neighbours (a peak y between x <= y >= z
becomes x - y + z), then both players take the larger end of the valley that is left."""


def solve(coins):
    stack = []
    for coin in coins:
        stack.append(coin)
        while len(stack) >= 3 and stack[-2] >= stack[-3] and stack[-2] >= stack[-1]:
            right = stack.pop()
            peak = stack.pop()
            stack[-1] = stack[-1] - peak + right
    lo, hi, margin, sign = 0, len(stack) - 1, 0, 1
    while lo <= hi:
        if stack[lo] >= stack[hi]:
            margin += sign * stack[lo]
            lo += 1
        else:
            margin += sign * stack[hi]
            hi -= 1
        sign = -sign
    return (sum(coins) + margin) // 2
