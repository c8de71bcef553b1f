/* peakrss.c - runs a command and writes its peak resident set size in KB
 * to the file named by the first argument (for make bench).
 *
 * A child's ru_maxrss includes the size of the process it was forked from
 * (the kernel keeps the old address space's peak across exec), so a
 * benchmark driver in Python would report its own 10 MB or more for every
 * program.  This process is small, and the command is forked from it. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: peakrss OUTFILE COMMAND [ARG...]\n", stderr);
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("peakrss: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror("peakrss: exec");
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (waitpid(pid, &status, 0) < 0 || getrusage(RUSAGE_CHILDREN, &ru) != 0) {
        perror("peakrss: wait");
        return 2;
    }
    FILE *f = fopen(argv[1], "w");
    if (!f || fprintf(f, "%ld\n", ru.ru_maxrss) < 0 || fclose(f) != 0) {
        perror("peakrss: write");
        return 2;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
