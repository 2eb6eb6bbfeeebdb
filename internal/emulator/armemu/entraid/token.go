package entraid

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
)

// keyID is the kid of the tokens the emulator issues, and signature their
// fixed fake signature: the tokens are JWT shaped for clients that decode
// them, but are not signed.
const (
	keyID     = "entraid-emulator"
	signature = "entraid-emulator-signature"
)

var b64 = base64.RawURLEncoding

// AccessToken is what an access token the emulator issued says.
type AccessToken struct {
	Audience  string    // aud: the requested scope's resource
	Issuer    string    // iss: https://<host>/<tenant>/v2.0
	TenantID  string    // tid
	AppID     string    // appid and azp: the client ID
	ObjectID  string    // oid and sub: the service principal, derived from tenant and client
	IssuedAt  time.Time // iat, also nbf
	ExpiresAt time.Time // exp
}

// accessToken issues a token for the grant.
func accessToken(g Grant, issuer string, now time.Time) string {
	acr := "1" // a secret
	if g.Method == MethodAssertion {
		acr = "2" // a certificate or federated assertion
	}
	oid := principalID(g.Tenant, g.ClientID)
	claims := map[string]any{
		"aud":      g.Resource(),
		"iss":      issuer,
		"iat":      now.Unix(),
		"nbf":      now.Unix(),
		"exp":      now.Add(Lifetime).Unix(),
		"tid":      g.Tenant,
		"appid":    g.ClientID,
		"azp":      g.ClientID,
		"appidacr": acr,
		"azpacr":   acr,
		"idtyp":    "app",
		"oid":      oid,
		"sub":      oid,
		"uti":      strings.ReplaceAll(uuid.NewString(), "-", ""),
		"ver":      "2.0",
	}
	header := map[string]any{"typ": "JWT", "alg": "RS256", "kid": keyID}
	return segment(header) + "." + segment(claims) + "." + b64.EncodeToString([]byte(signature))
}

func segment(v map[string]any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // strings and numbers only
	}
	return b64.EncodeToString(b)
}

// principalID is a service principal object ID, stable for the tenant and client.
func principalID(tenant, clientID string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(tenant) + "/" + strings.ToLower(clientID)))
	id, _ := uuid.FromBytes(sum[:16])
	id[6] = id[6]&0x0f | 0x40 // version 4 shape
	id[8] = id[8]&0x3f | 0x80
	return id.String()
}

// DecodeJWT decodes a compact JWT's header and claims without verifying its
// signature (numbers are json.Number), for accept functions that inspect an
// assertion.
func DecodeJWT(token string) (header, claims map[string]any, err error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, nil, errors.New("a JWT has three dot-separated parts")
	}
	if header, err = decodeSegment(parts[0]); err != nil {
		return nil, nil, fmt.Errorf("JWT header: %w", err)
	}
	if claims, err = decodeSegment(parts[1]); err != nil {
		return nil, nil, fmt.Errorf("JWT claims: %w", err)
	}
	return header, claims, nil
}

func decodeSegment(s string) (map[string]any, error) {
	b, err := b64.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errors.New("not a JSON object")
	}
	return m, nil
}

// ParseAccessToken reads an access token the emulator issued (any emulator:
// the tokens carry no secret), for a resource emulator checking bearer
// tokens. It fails on any other token; it does not check expiry.
func ParseAccessToken(token string) (AccessToken, error) {
	header, claims, err := DecodeJWT(token)
	if err != nil {
		return AccessToken{}, err
	}
	if header["kid"] != keyID || token[strings.LastIndexByte(token, '.')+1:] != b64.EncodeToString([]byte(signature)) {
		return AccessToken{}, errors.New("not a token of the Entra ID emulator")
	}
	str := func(k string) string { v, _ := claims[k].(string); return v }
	unix := func(k string) time.Time {
		n, _ := claims[k].(json.Number)
		i, _ := n.Int64()
		return time.Unix(i, 0)
	}
	return AccessToken{
		Audience:  str("aud"),
		Issuer:    str("iss"),
		TenantID:  str("tid"),
		AppID:     str("appid"),
		ObjectID:  str("oid"),
		IssuedAt:  unix("iat"),
		ExpiresAt: unix("exp"),
	}, nil
}
