/* A SPANK plugin that only registers two sbatch options, as a site plugin would (tests only). */
#include <stddef.h>
#include <stdint.h>

typedef void *spank_t;
typedef int (*spank_opt_cb_f)(int val, const char *optarg, int remote);
struct spank_option {
    char *name; char *arginfo; char *usage; int has_arg; int val; spank_opt_cb_f cb;
};
extern int spank_option_register(spank_t spank, struct spank_option *opt);

const char plugin_name[] = "siteopt";
const char plugin_type[] = "spank";
const unsigned int plugin_version = PLUGIN_VERSION_NUMBER;

static int accept_value(int val, const char *optarg, int remote) { (void)val; (void)optarg; (void)remote; return 0; }

static struct spank_option options[] = {
    {"uenv", "<file>", "mount this user environment", 1, 0, accept_value},
    {"site-long-option-name", "<some-long-argument>", "an option whose help line is too long", 1, 1, accept_value},
    {"site-flag", NULL, "a flag", 0, 2, accept_value},
};

int slurm_spank_init(spank_t sp, int ac, char **av)
{
    (void)ac; (void)av;
    for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
        if (spank_option_register(sp, &options[i]) != 0)
            return -1;
    return 0;
}
