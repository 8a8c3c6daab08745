// EDPC L in C++, wrong: the table is int, so margins over 2^31 overflow.
#include <bits/stdc++.h>
using namespace std;

int main() {
    int n;
    if (!(cin >> n)) return 1;
    vector<int> a(n), dp(n);
    for (auto &v : a) cin >> v;
    dp = a;
    for (int len = 2; len <= n; ++len)
        for (int i = 0; i + len - 1 < n; ++i)
            dp[i] = max(a[i] - dp[i + 1], a[i + len - 1] - dp[i]);
    cout << dp[0] << "\n";
}
