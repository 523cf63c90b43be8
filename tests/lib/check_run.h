/*
 * check_run.h - the one way a Check unit suite runs: every test of the
 * suite, then the line tools/run-suites.sh reads ("N tests run, P passed,
 * F failed").  Returns main()'s exit status.
 */
#ifndef VMSIM_CHECK_RUN_H
#define VMSIM_CHECK_RUN_H

#include <check.h>

int run_check_suite(Suite *s);

#endif
