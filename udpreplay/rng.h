/*
 * rng.h -- the deterministic random source of the trace generator.
 *
 * xoshiro256** seeded through splitmix64: the same seed gives the same
 * trace on every machine and libc, which rand()/random() do not promise.
 */
#ifndef UR_RNG_H
#define UR_RNG_H

#include <stdint.h>

typedef struct ur_rng {
	uint64_t s[4];
} ur_rng;

/* Seed the generator; any 64-bit value (including 0) is fine. */
void ur_rng_seed(ur_rng *rng, uint64_t seed);
/* The next 64 random bits. */
uint64_t ur_rng_next(ur_rng *rng);
/* Uniform in [0, 1), 53 bits of precision. */
double ur_rng_uniform(ur_rng *rng);
/* Uniform integer in [0, n), n > 0, without modulo bias. */
uint64_t ur_rng_below(ur_rng *rng, uint64_t n);
/* Exponentially distributed with the given mean (Poisson inter-arrivals). */
double ur_rng_exponential(ur_rng *rng, double mean);
/* 1 with probability p, else 0. */
int ur_rng_chance(ur_rng *rng, double p);

#endif
