/*
 * random_bytes() and getrandom(2).  The hardware generators are used when
 * CPUID offers them (each retried a few times, as Intel advises; a source
 * that keeps failing is dropped for the software one).  The software
 * generator is xoshiro256**, seeded once from the TSC and both clocks: fine
 * for canaries and benchmarks, not for cryptography.
 */
#include "arch/x86_64/cpufeature.h"
#include "lib/string.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"
#include "sys/uio.h"
#include "time/random.h"
#include "time/time.h"
#include "time/time_priv.h"

#define HW_RETRIES 10
#define GRND_NONBLOCK 0x1
#define GRND_RANDOM 0x2
#define GRND_INSECURE 0x4
#define GETRANDOM_MAX MAX_RW_COUNT
#define CHUNK 256

typedef bool hw_random_fn(uint64_t *v);

static bool rdrand64(uint64_t *v)
{
	bool ok;

	__asm__ __volatile__("rdrand %0" : "=r"(*v), "=@ccc"(ok));
	return ok;
}

static bool rdseed64(uint64_t *v)
{
	bool ok;

	__asm__ __volatile__("rdseed %0" : "=r"(*v), "=@ccc"(ok));
	return ok;
}

static struct {
	bool ready;
	hw_random_fn *hw;
	const char *name;
	uint64_t s[4]; /* xoshiro256** state */
} rng;

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t xoshiro_next(void)
{
	uint64_t *s = rng.s;
	uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* splitmix64: spreads a few weak seed words over the whole state. */
static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void rng_init(void)
{
	uint64_t seed = vclock_rdtsc_lfence() ^ rotl(time_realtime_ns(), 17) ^
			rotl(time_monotonic_ns(), 41);
	unsigned i;

	for (i = 0; i < 4; i++)
		rng.s[i] = splitmix(&seed);
	rng.hw = cpu_has(CAP_RDRAND) ? rdrand64 : cpu_has(CAP_RDSEED) ? rdseed64 : 0;
	rng.name = cpu_has(CAP_RDRAND) ? "rdrand" : cpu_has(CAP_RDSEED) ? "rdseed" : "xoshiro256**";
	rng.ready = true;
}

static uint64_t random_u64(void)
{
	uint64_t v;
	unsigned i;

	if (!rng.ready)
		rng_init();
	for (i = 0; rng.hw && i < HW_RETRIES; i++)
		if (rng.hw(&v))
			return v;
	if (rng.hw) {
		rng.hw = 0;
		rng.name = "xoshiro256**";
	}
	return xoshiro_next();
}

void random_bytes(void *buf, size_t n)
{
	uint8_t *p = buf;

	while (n) {
		uint64_t v = random_u64();
		size_t k = n < sizeof(v) ? n : sizeof(v);

		memcpy(p, &v, k);
		p += k;
		n -= k;
	}
}

const char *random_source(void)
{
	if (!rng.ready)
		rng_init();
	return rng.name;
}

/* getrandom(void *buf, size_t len, unsigned flags): len bytes, or fewer when a page faults. */
SYSCALL_DEFINE3(getrandom, uint64_t, buf, uint64_t, count, unsigned, flags)
{
	uint8_t chunk[CHUNK];
	uint64_t len = count > GETRANDOM_MAX ? GETRANDOM_MAX : count, done = 0;

	if (flags & ~(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE) ||
	    (flags & (GRND_RANDOM | GRND_INSECURE)) == (GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	/* The generator is always ready: GRND_NONBLOCK never has to return EAGAIN. */
	while (done < len) {
		size_t k = len - done < CHUNK ? (size_t)(len - done) : CHUNK;

		random_bytes(chunk, k);
		if (copy_to_user(buf + done, chunk, k))
			return done ? (long)done : -EFAULT;
		done += k;
	}
	return (long)done;
}
