package field

// Warning is a configuration that is accepted but probably not what the user
// wants, with what actually happens. Every engine's Warnings returns this one
// type, so the provider turns warnings of any domain into diagnostics the
// same way an Error becomes one.
type Warning struct {
	// Path is the attribute the warning is about, e.g.
	// disruption.budgets[1].schedule.
	Path Path
	// ID names the warning's rule (one of the engine's Warn... constants), so
	// callers and tests find a warning without matching its text.
	ID string
	// Message says what is surprising and what actually happens.
	Message string
}

// String renders "<path>: <message>", or the message alone at the root.
func (w Warning) String() string {
	if p := w.Path.String(); p != "" {
		return p + ": " + w.Message
	}
	return w.Message
}
