package sdktest_test

import (
	"testing"

	"github.com/stratoscli/stratos/shared/sdk"
	"github.com/stratoscli/stratos/shared/sdk/sdktest"
)

func TestPlacedSDKIsCurrent(t *testing.T) {
	root := t.TempDir()
	if sdk.Current(root) {
		t.Fatal("an empty root has a current SDK")
	}
	if err := sdktest.Place(root); err != nil {
		t.Fatal(err)
	}
	if !sdk.Current(root) {
		t.Fatalf("the placed SDK is not current (damaged: %q)", sdk.Damage(root))
	}
}
