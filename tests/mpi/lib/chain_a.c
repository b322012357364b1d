/* chain_a.c: a library that uses MPI only through another one (libchain_b): private too. */
int chain_b_rank(void);
extern int chain_b_calls;

static int last = -1;

int chain_a_rank_twice(void)
{
    int r = chain_b_rank();
    last = r;
    return 2 * r + 0 * chain_b_calls;
}

int chain_a_last(void)
{
    return last;
}
