"""Wrong: both players take the larger end."""


def optimalStrategyOfGame(arr, n):
    lo, hi, totals, turn = 0, n - 1, [0, 0], 0
    while lo <= hi:
        if arr[lo] >= arr[hi]:
            totals[turn] += arr[lo]
            lo += 1
        else:
            totals[turn] += arr[hi]
            hi -= 1
        turn = 1 - turn
    return totals[0]
