/* engine/gate/driver_main.c — main() for a fuzzgate binary: the whole command line is fg_main.
 * Built into libfuzzgate_main.a, apart from libfuzzgate.a, so a host with its own main
 * never gets a second one. */
#include "fuzzgate.h"

int main(int argc, char **argv)
{
    return fg_main(argc, argv);
}
