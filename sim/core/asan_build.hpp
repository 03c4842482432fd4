#pragma once
// Whether this translation unit is compiled with AddressSanitizer (`make
// test-sanitize`, `make fuzz`): GCC defines __SANITIZE_ADDRESS__, clang
// answers __has_feature (which GCC only has from version 14, so a test of
// __has_feature alone misses Debian 12's GCC 12).
#if defined(__SANITIZE_ADDRESS__)
#define CONTEND_ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CONTEND_ASAN_BUILD 1
#endif
#endif
#ifndef CONTEND_ASAN_BUILD
#define CONTEND_ASAN_BUILD 0
#endif
