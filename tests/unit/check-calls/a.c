/* a.c: half of a circle, for test check-calls-fixture: hands b.c a pointer to call back */

#include "b.h"

static int
twice (int x)
{
  return 2 * x;
}

int
a_run (int x)
{
  /* "twice (" in a comment and "b_apply (" in a string are not calls */
  const char *s = "b_apply (";

  (void) s;
  return b_apply (twice, x);
}
