package auth

import (
	"crypto/cipher"
	"crypto/des"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
)

// testCert is a throwaway self-signed RSA certificate and its key, made once.
var testCert = sync.OnceValues(func() (*x509.Certificate, *rsa.PrivateKey) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "auth test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		panic(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		panic(err)
	}
	return cert, key
})

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// pemCertFile writes the certificate and its unencrypted PKCS#8 key as PEM.
func pemCertFile(t *testing.T) string {
	cert, key := testCert()
	pk, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	data := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw})
	data = append(data, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pk})...)
	return writeFile(t, "cert.pem", data)
}

// pfxCertFile writes the certificate and its key as PKCS#12 protected by
// password, as certificates exported from Windows or Key Vault are: the key in
// a pbeWithSHAAnd3-KeyTripleDES-CBC shrouded key bag, the whole authenticated
// by HMAC-SHA1 (RFC 7292). The standard library and golang.org/x/crypto/pkcs12
// only decode PKCS#12, so this encodes the minimum azidentity reads.
func pfxCertFile(t *testing.T, password string) string {
	t.Helper()
	var (
		oidData        = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1}
		oidShroudedKey = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 10, 1, 2}
		oidCertBag     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 10, 1, 3}
		oidX509Cert    = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 22, 1}
		oidPBE3DES     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 1, 3}
		oidSHA1        = asn1.ObjectIdentifier{1, 3, 14, 3, 2, 26}
		salt           = []byte("saltsalt")
		pass           = bmpString(password)
	)
	marshal := func(v any) []byte {
		b, err := asn1.Marshal(v)
		must(t, err)
		return b
	}
	type tagged struct { // an OID and its [0] EXPLICIT value: ContentInfo, SafeBag, CertBag
		ID    asn1.ObjectIdentifier
		Value asn1.RawValue
	}
	explicit := func(id asn1.ObjectIdentifier, der []byte) tagged {
		return tagged{id, asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 0, IsCompound: true, Bytes: der}}
	}
	data := func(content []byte) tagged { return explicit(oidData, marshal(content)) }

	cert, key := testCert()
	pk, err := x509.MarshalPKCS8PrivateKey(key)
	must(t, err)
	block, err := des.NewTripleDESCipher(pkcs12KDF(salt, pass, 1, 24))
	must(t, err)
	pad := block.BlockSize() - len(pk)%block.BlockSize()
	for range pad {
		pk = append(pk, byte(pad))
	}
	cipher.NewCBCEncrypter(block, pkcs12KDF(salt, pass, 2, 8)).CryptBlocks(pk, pk)
	type pbeParams struct {
		Salt       []byte
		Iterations int
	}
	shrouded := marshal(struct {
		Algorithm pkix.AlgorithmIdentifier
		Data      []byte
	}{pkix.AlgorithmIdentifier{Algorithm: oidPBE3DES, Parameters: asn1.RawValue{FullBytes: marshal(pbeParams{salt, 1})}}, pk})

	authSafe := marshal([]tagged{
		data(marshal([]tagged{explicit(oidCertBag, marshal(explicit(oidX509Cert, marshal(cert.Raw))))})),
		data(marshal([]tagged{explicit(oidShroudedKey, shrouded)})),
	})
	mac := hmac.New(sha1.New, pkcs12KDF(salt, pass, 3, 20))
	mac.Write(authSafe)
	type digestInfo struct {
		Algorithm pkix.AlgorithmIdentifier
		Digest    []byte
	}
	type macData struct {
		Mac        digestInfo
		Salt       []byte
		Iterations int
	}
	pfx := marshal(struct {
		Version  int
		AuthSafe tagged
		MacData  macData
	}{3, data(authSafe), macData{digestInfo{pkix.AlgorithmIdentifier{Algorithm: oidSHA1, Parameters: asn1.NullRawValue}, mac.Sum(nil)}, salt, 1}})
	return writeFile(t, "cert.pfx", pfx)
}

// bmpString is a PKCS#12 password: UTF-16BE with a terminating NUL.
func bmpString(s string) []byte {
	var out []byte
	for _, r := range utf16.Encode([]rune(s + "\x00")) {
		out = append(out, byte(r>>8), byte(r))
	}
	return out
}

// pkcs12KDF is RFC 7292 appendix B.2 with SHA-1 and one iteration.
func pkcs12KDF(salt, password []byte, id byte, size int) []byte {
	const v = 64
	fill := func(p []byte) []byte { // repeated to a multiple of v bytes
		out := make([]byte, v*((len(p)+v-1)/v))
		for i := range out {
			out[i] = p[i%len(p)]
		}
		return out
	}
	d := make([]byte, v)
	for i := range d {
		d[i] = id
	}
	in := append(fill(salt), fill(password)...)
	var out []byte
	for len(out) < size {
		a := sha1.Sum(append(d, in...))
		out = append(out, a[:]...)
		b := fill(a[:])[:v]
		for j := 0; j < len(in); j += v { // in_j = (in_j + b + 1) mod 2^(8v)
			carry := 1
			for k := v - 1; k >= 0; k-- {
				sum := int(in[j+k]) + int(b[k]) + carry
				in[j+k], carry = byte(sum), sum>>8
			}
		}
	}
	return out[:size]
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// The encoder above writes what azidentity reads back.
func TestTestCertificatesParse(t *testing.T) {
	for name, path := range map[string]string{"pem": pemCertFile(t), "pkcs12": pfxCertFile(t, "pässword")} {
		data, err := os.ReadFile(path)
		must(t, err)
		var password []byte
		if name == "pkcs12" {
			password = []byte("pässword")
		}
		certs, key, err := azidentity.ParseCertificates(data, password)
		if err != nil || len(certs) != 1 || key == nil {
			t.Fatalf("%s: %d certificates, key %v, error %v", name, len(certs), key != nil, err)
		}
	}
}
