package kubeapi

import (
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// Names in the kubeconfig Kubeconfig writes.
const (
	KubeconfigCluster = "fleet-hub"
	KubeconfigUser    = "fleet-hub-user"
	KubeconfigContext = "fleet-hub"
)

// Kubeconfig is a kubeconfig (clientcmd's format, YAML) for this endpoint at
// serverURL: one cluster that trusts caPEM (the system roots when empty), one
// user with the bearer token, and a current context joining them.
func Kubeconfig(serverURL string, caPEM []byte, token string) []byte {
	cfg := clientcmdapi.NewConfig()
	cluster := clientcmdapi.NewCluster()
	cluster.Server = serverURL
	if len(caPEM) > 0 {
		cluster.CertificateAuthorityData = append([]byte(nil), caPEM...)
	}
	user := clientcmdapi.NewAuthInfo()
	user.Token = token
	ctx := clientcmdapi.NewContext()
	ctx.Cluster, ctx.AuthInfo = KubeconfigCluster, KubeconfigUser
	cfg.Clusters[KubeconfigCluster] = cluster
	cfg.AuthInfos[KubeconfigUser] = user
	cfg.Contexts[KubeconfigContext] = ctx
	cfg.CurrentContext = KubeconfigContext
	b, err := clientcmd.Write(*cfg)
	if err != nil { // strings and bytes only: the encoder cannot fail on them
		panic("kubeapi: encoding a kubeconfig: " + err.Error())
	}
	return b
}
