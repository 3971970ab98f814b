// Package keyringtest runs the OAuth flow against oidc-provider with the
// tokens in the real OS keyring (secrets.Keyring), in a test binary of its
// own (nothing in it may replace go-keyring's backend). Run it inside
// .ci/keyring.sh; outside CI it skips when no keyring answers, under
// CI=true it fails instead.
package keyringtest
