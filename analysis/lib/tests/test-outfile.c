/*
 * test-outfile.c -- unit test of outfile.c. What must hold: before the
 * commit only the temporary file PATH.tmp.PID exists; the commit makes
 * PATH appear whole (every byte written) and leaves nothing else; abort
 * leaves nothing; a temporary file a library wrote (no fp) is renamed as
 * it is; a directory that does not exist, a failed write (/dev/full) and
 * a failed rename (PATH became a directory) are each reported with a
 * message naming the file and the cause, with no file left behind; a
 * PATH that exists and is not a regular file (FIFO, directory, device) is
 * refused at the start and left as it was.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../outfile.h"
#include "../unittest.h"

static char dir[4096];

/* entries: how many names dir holds (not . and ..). */
static int
entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static int
exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* slurp: the first bytes of path into buf (NUL-terminated); their count or -1. */
static long
slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return (long)n;
}

static void
test_commit_and_abort(void)
{
	static char buf[400000];
	struct rb_outfile o;
	char path[4200], err[1024];
	long i, want = 0;

	snprintf(path, sizeof(path), "%s/result.json", dir);
	UT_EQ(rb_outfile_begin(&o, path, 1, err, sizeof(err)), 0);
	UT_CHECK(o.fp != NULL);
	UT_CHECK(strstr(o.tmp, ".tmp.") != NULL);
	/* More than one stdio buffer, so some of it is on disk already. */
	for (i = 0; i < 20000; i++)
		want += fprintf(o.fp, "line %06ld\n", i);
	UT_CHECK(exists(o.tmp));
	UT_CHECK(!exists(path));
	UT_EQ(rb_outfile_commit(&o, err, sizeof(err)), 0);
	UT_CHECK(o.tmp == NULL && o.path == NULL && o.fp == NULL);
	UT_EQ(slurp(path, buf, sizeof(buf)), want);
	UT_CHECK(strncmp(buf, "line 000000\n", 12) == 0);
	UT_CHECK(strcmp(buf + want - 12, "line 019999\n") == 0);
	UT_EQ(entries(), 1);
	rb_outfile_abort(&o);	/* harmless after a commit */
	UT_CHECK(exists(path));
	unlink(path);

	UT_EQ(rb_outfile_begin(&o, path, 1, err, sizeof(err)), 0);
	fputs("half a result", o.fp);
	UT_EQ(entries(), 1);
	rb_outfile_abort(&o);
	UT_EQ(entries(), 0);

	/* Closed first (the file is whole), renamed later. */
	UT_EQ(rb_outfile_begin(&o, path, 1, err, sizeof(err)), 0);
	fputs("closed first\n", o.fp);
	UT_EQ(rb_outfile_close(&o, err, sizeof(err)), 0);
	UT_CHECK(o.fp == NULL && !exists(path) && exists(o.tmp));
	UT_EQ(rb_outfile_commit(&o, err, sizeof(err)), 0);
	UT_EQ(slurp(path, buf, sizeof(buf)), 13);
	UT_EQ(entries(), 1);
	unlink(path);
}

/* Without fp, as pcapout.c uses it: libpcap writes tmp by name. */
static void
test_library_writes_tmp(void)
{
	struct rb_outfile o;
	char path[4200], err[1024], buf[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/trace.pcap", dir);
	UT_EQ(rb_outfile_begin(&o, path, 0, err, sizeof(err)), 0);
	UT_CHECK(o.fp == NULL);
	UT_CHECK(!exists(o.tmp));
	f = fopen(o.tmp, "w");
	UT_CHECK(f != NULL);
	if (f) {
		fputs("written by name", f);
		fclose(f);
	}
	UT_EQ(rb_outfile_commit(&o, err, sizeof(err)), 0);
	UT_EQ(slurp(path, buf, sizeof(buf)), 15);
	UT_EQ(entries(), 1);
	unlink(path);
}

static void
test_errors(void)
{
	struct rb_outfile o;
	char path[4200], err[1024];

	/* A directory that does not exist. */
	snprintf(path, sizeof(path), "%s/no/such/dir/result.json", dir);
	err[0] = '\0';
	UT_EQ(rb_outfile_begin(&o, path, 1, err, sizeof(err)), -1);
	UT_CHECK(strstr(err, "/no/such/dir/result.json.tmp.") != NULL);
	UT_CHECK(strstr(err, strerror(ENOENT)) != NULL);
	UT_CHECK(o.path == NULL && o.tmp == NULL && o.fp == NULL);
	rb_outfile_abort(&o);	/* harmless after a failed begin */
	UT_EQ(entries(), 0);

	/* A write that fails: the stream replaced by one on /dev/full. */
	snprintf(path, sizeof(path), "%s/full.json", dir);
	UT_EQ(rb_outfile_begin(&o, path, 1, err, sizeof(err)), 0);
	fclose(o.fp);
	o.fp = fopen("/dev/full", "w");
	UT_CHECK(o.fp != NULL);
	if (o.fp) {
		fputs("does not fit\n", o.fp);
		err[0] = '\0';
		UT_EQ(rb_outfile_commit(&o, err, sizeof(err)), -1);
		UT_CHECK(strstr(err, "full.json.tmp.") != NULL);
		UT_CHECK(strstr(err, "write failed: ") != NULL);
		UT_CHECK(strstr(err, strerror(ENOSPC)) != NULL);
	}
	UT_EQ(entries(), 0);

	/* A rename that fails: the target became a directory meanwhile. */
	snprintf(path, sizeof(path), "%s/taken", dir);
	UT_EQ(rb_outfile_begin(&o, path, 1, err, sizeof(err)), 0);
	fputs("result\n", o.fp);
	UT_EQ(mkdir(path, 0755), 0);
	err[0] = '\0';
	UT_EQ(rb_outfile_commit(&o, err, sizeof(err)), -1);
	UT_CHECK(strncmp(err, "rename ", 7) == 0);
	UT_CHECK(strstr(err, strerror(EISDIR)) != NULL);
	UT_EQ(entries(), 1);	/* the directory alone */

	/* Not a regular file: refused before anything is written. */
	err[0] = '\0';
	UT_EQ(rb_outfile_begin(&o, path, 1, err, sizeof(err)), -1);
	UT_CHECK(strstr(err, "taken: not a regular file") != NULL);
	UT_EQ(entries(), 1);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	UT_EQ(mkfifo(path, 0600), 0);
	UT_EQ(rb_outfile_begin(&o, path, 0, err, sizeof(err)), -1);
	UT_EQ(entries(), 1);
	unlink(path);
	/* Without fp, so that nothing is created in /dev even if this fails. */
	if (rb_outfile_begin(&o, "/dev/null", 0, err, sizeof(err)) == 0) {
		UT_CHECK(!"/dev/null accepted");
		rb_outfile_abort(&o);
	}
	UT_CHECK(strstr(err, "/dev/null: not a regular file") != NULL);
}

int
main(void)
{
	const char *t = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/rb-test-outfile.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	test_commit_and_abort();
	test_library_writes_tmp();
	test_errors();
	if (entries() != 0)
		fprintf(stderr, "test_outfile: %s not empty\n", dir);
	rmdir(dir);
	return UT_DONE("test_outfile");
}
