"""Correct in O(n log n): the O(n) solve after a hand-written merge sort of a copy (a
student's needless "sort to find the big coins" step)."""


def merge_sort(values):
    if len(values) <= 1:
        return values
    middle = len(values) // 2
    left, right = merge_sort(values[:middle]), merge_sort(values[middle:])
    merged, i, j = [], 0, 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            j += 1
    return merged + left[i:] + right[j:]


def solve(coins):
    merge_sort(list(coins))
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
