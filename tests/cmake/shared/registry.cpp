// registry.cpp: a static std:: object of a C++ library, constructed before main in each copy.
#include <mpi.h>
#include <vector>

static std::vector<int> seen;

extern "C" int registry_add(int v)
{
    seen.push_back(v);
    return static_cast<int>(seen.size());
}

extern "C" int registry_first(void)
{
    return seen.empty() ? -1 : seen.front();
}
