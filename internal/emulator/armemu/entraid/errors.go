package entraid

import (
	"fmt"
	"net/http"
)

// Error is an Entra ID error response. An accept function may return one
// (or wrap one) to choose the response to a grant it refuses; the AADSTS
// codes the emulator uses itself follow Entra ID's where they are known.
type Error struct {
	Status  int    // the HTTP status: 401 for invalid_client, else 400, when 0
	Code    string // the OAuth error code: invalid_client when ""
	AADSTS  int    // the AADSTS error number, 7000215 when 0
	Message string // the description, after "AADSTS<n>: "
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: AADSTS%d: %s", e.code(), e.aadsts(), e.Message)
}

func (e *Error) code() string {
	if e.Code == "" {
		return "invalid_client"
	}
	return e.Code
}

func (e *Error) aadsts() int {
	if e.AADSTS == 0 {
		return 7000215
	}
	return e.AADSTS
}

func (e *Error) status() int {
	switch {
	case e.Status != 0:
		return e.Status
	case e.code() == "invalid_client":
		return http.StatusUnauthorized
	}
	return http.StatusBadRequest
}

func invalidRequest(aadsts int, msg string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: "invalid_request", AADSTS: aadsts, Message: msg}
}

// missing is Entra ID's answer to a request without a required parameter.
func missing(param string) *Error {
	return invalidRequest(900144, fmt.Sprintf("The request body must contain the following parameter: '%s'.", param))
}
