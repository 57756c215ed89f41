/*
 * rng.c -- the deterministic random source of the trace generator
 * (xoshiro256** by Blackman and Vigna, seeded with splitmix64).
 */
#include <math.h>
#include "rng.h"

static uint64_t
ur_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void
ur_rng_seed(ur_rng *rng, uint64_t seed)
{
	int i;
	for (i = 0; i < 4; i++)
		rng->s[i] = ur_splitmix64(&seed);
}

static inline uint64_t
ur_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t
ur_rng_next(ur_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = ur_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = ur_rotl(s[3], 45);
	return result;
}

double
ur_rng_uniform(ur_rng *rng)
{
	return (double)(ur_rng_next(rng) >> 11) * 0x1.0p-53;
}

uint64_t
ur_rng_below(ur_rng *rng, uint64_t n)
{
	/* Reject the top partial block so every value is equally likely. */
	uint64_t limit = UINT64_MAX - (UINT64_MAX % n);
	uint64_t x;
	do {
		x = ur_rng_next(rng);
	} while (x >= limit);
	return x % n;
}

double
ur_rng_exponential(ur_rng *rng, double mean)
{
	/* 1 - u is in (0, 1], so the log is finite. */
	return -mean * log(1.0 - ur_rng_uniform(rng));
}

int
ur_rng_chance(ur_rng *rng, double p)
{
	return ur_rng_uniform(rng) < p;
}
