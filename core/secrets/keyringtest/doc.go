// Package keyringtest holds the tests of secrets.Keyring against a real
// OS keyring. They live in their own test binary so that nothing else in
// it can have replaced go-keyring's backend (keyring.MockInit cannot be
// undone). Run them inside .ci/keyring.sh, which starts a throwaway
// gnome-keyring daemon on a private D-Bus session. Outside CI they skip
// when no keyring answers; under CI=true they fail instead.
package keyringtest
