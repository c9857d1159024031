// Catch2's main, compiled once into its own object (slow under emcc).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
