/* plugin.c: a library a rank opens with dlopen (not linked by the program): it keeps a static
 * count and reaches MPI through libchain_b, so it is private to the rank that opens it. */
static int count;

int chain_b_rank(void);

int plugin_next(void)
{
    return ++count;
}

int plugin_rank(void)
{
    return chain_b_rank();
}
