/* check_run.c - see check_run.h */
#include "check_run.h"

#include <stdio.h>
#include <stdlib.h>

int run_check_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	int run = srunner_ntests_run(sr);
	srunner_free(sr);
	printf("%d tests run, %d passed, %d failed\n", run, run - failed, failed);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
