package main

import "testing"

func TestTheArgumentsAreStdioOrHTTPWithAnOptionalProfile(t *testing.T) {
	for _, c := range []struct {
		args []string
		want launch
	}{
		{nil, launch{}},
		{[]string{"--http", "0"}, launch{http: true}},
		{[]string{"--http", "8080", "--conformance"}, launch{port: 8080, http: true, conformance: true}},
		{[]string{"--conformance", "--http", "65535"}, launch{port: 65535, http: true, conformance: true}},
		{[]string{"--unguarded"}, launch{unguarded: true}},
		{[]string{"--unguarded", "--http", "0"}, launch{http: true, unguarded: true}},
	} {
		got, err := arguments(c.args)
		if err != nil || got != c.want {
			t.Errorf("%v: %+v %v", c.args, got, err)
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
		{[]string{"--unguarded", "--unguarded"}, usage},
		{[]string{"--http", "0", "--conformance", "--unguarded"}, "--unguarded serves the control, which has no conformance fixtures"},
	} {
		if _, err := arguments(c.args); err == nil || err.Error() != c.message {
			t.Errorf("%v: got %v, want %q", c.args, err, c.message)
		}
	}
}
