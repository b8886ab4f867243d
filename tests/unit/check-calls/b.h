/* b.h: the fixture's one header */
int b_apply (int (*f) (int), int x);
