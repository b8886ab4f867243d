/* b.c: the other half: calls the pointer a.c handed over */

#include "b.h"

int
b_apply (int (*f) (int),
         int x)
{
  return f (x);
}
