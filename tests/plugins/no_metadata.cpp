// A real shared library named like a plugin but without plinth's metadata symbol.

extern "C" __attribute__((visibility("default"))) int plinth_test_no_metadata() { return 0; }
