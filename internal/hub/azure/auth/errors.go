package auth

// ConfigError is a misconfiguration of the azure block or its environment
// variables. Neither Message nor Err ever holds a secret, token or password.
type ConfigError struct {
	// Setting is the azure block attribute to attach the diagnostic to, such
	// as "client_secret".
	Setting string
	// Env is the setting's environment variable, such as "ARM_CLIENT_SECRET".
	Env string
	// Message says, in a sentence for the user, what is wrong and what to set.
	Message string
	// Err is the underlying cause, or nil.
	Err error
}

func (e *ConfigError) Error() string {
	if e.Err == nil {
		return e.Message
	}
	return e.Message + ": " + e.Err.Error()
}

func (e *ConfigError) Unwrap() error { return e.Err }
