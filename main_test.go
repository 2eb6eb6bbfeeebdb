package main

import (
	"os"
	"strings"
	"testing"
)

// TestQuietUnreadLogs: the provider turns its loggers off only when no
// TF_LOG variable asks Terraform to show provider logs.
func TestQuietUnreadLogs(t *testing.T) {
	clear := func(t *testing.T) {
		for _, kv := range os.Environ() {
			if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "TF_LOG") {
				t.Setenv(name, "") // restored after the test
				os.Unsetenv(name)
			}
		}
	}
	for _, tc := range []struct {
		name  string
		env   map[string]string
		quiet bool
	}{
		{"no TF_LOG variable: no one reads the logs", nil, true},
		{"TF_LOG_CORE shows core's logs only", map[string]string{"TF_LOG_CORE": "TRACE"}, true},
		{"TF_LOG", map[string]string{"TF_LOG": "DEBUG"}, false},
		{"TF_LOG_PROVIDER", map[string]string{"TF_LOG_PROVIDER": "TRACE"}, false},
		{"TF_LOG_PATH", map[string]string{"TF_LOG_PATH": "/tmp/tf.log"}, false},
		{"TF_LOG_SDK_FRAMEWORK", map[string]string{"TF_LOG_SDK_FRAMEWORK": "TRACE"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clear(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			quietUnreadLogs()
			sdk, provider := os.Getenv("TF_LOG_SDK"), os.Getenv("TF_LOG_PROVIDER")
			if quiet := sdk == "OFF" && provider == "OFF"; quiet != tc.quiet {
				t.Fatalf("TF_LOG_SDK=%q TF_LOG_PROVIDER=%q, want quiet=%v", sdk, provider, tc.quiet)
			}
		})
	}
}
