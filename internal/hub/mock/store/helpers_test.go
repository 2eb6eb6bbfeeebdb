package store

import (
	"testing"
	"time"
)

// testNow is the instant the tests' records are written at.
var testNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
