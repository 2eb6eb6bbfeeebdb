package mock

import "time"

// testNow is the instant the tests' fixed clocks show.
var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
