// A library the missing-dependency plugin links against. It is built into its own directory
// and the plugin carries no RPATH to it, so at run time the dynamic loader cannot find it.

extern "C" __attribute__((visibility("default"))) int plinth_test_missing_dependency() {
  return 42;
}
