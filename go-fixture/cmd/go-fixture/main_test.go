package main

import "testing"

func TestTheArgumentsAreStdioOrHTTPWithAnOptionalProfile(t *testing.T) {
	for _, c := range []struct {
		args              []string
		port              int
		http, conformance bool
	}{
		{nil, 0, false, false},
		{[]string{"--http", "0"}, 0, true, false},
		{[]string{"--http", "8080", "--conformance"}, 8080, true, true},
		{[]string{"--conformance", "--http", "65535"}, 65535, true, true},
	} {
		port, http, conformance, err := arguments(c.args)
		if err != nil || port != c.port || http != c.http || conformance != c.conformance {
			t.Errorf("%v: %d %v %v %v", c.args, port, http, conformance, err)
		}
	}
	for _, c := range []struct {
		args    []string
		message string
	}{
		{[]string{"--stdio"}, usage},
		{[]string{"--http"}, usage},
		{[]string{"--http", "1", "--http", "2"}, usage},
		{[]string{"--conformance", "--conformance", "--http", "1"}, usage},
		{[]string{"--http", "70000"}, "--http 70000 is not a port (0 to 65535)"},
		{[]string{"--http", "08"}, "--http 08 is not a port (0 to 65535)"},
		{[]string{"--http", "-1"}, "--http -1 is not a port (0 to 65535)"},
		{[]string{"--conformance"}, "--conformance needs --http PORT"},
	} {
		if _, _, _, err := arguments(c.args); err == nil || err.Error() != c.message {
			t.Errorf("%v: got %v, want %q", c.args, err, c.message)
		}
	}
}
