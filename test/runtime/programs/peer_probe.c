/* Not an MPI program: rank 0 knocks on the coordinator with bad
 * connections (no token, garbage, a wrong token, an oversized frame) and
 * checks that each one is closed; every rank prints its launcher
 * environment. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

static int knock(const char *host, int port, const void *data, size_t size) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in addr = {0};
  addr.sin_family = AF_INET;
  addr.sin_port = htons((uint16_t)port);
  inet_pton(AF_INET, host, &addr.sin_addr);
  struct timeval tv = {15, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0)
    return -1;
  if (size && write(fd, data, size) != (ssize_t)size)
    return -1;
  char buf[16];
  ssize_t n = read(fd, buf, sizeof buf); /* 0: the coordinator closed it */
  close(fd);
  return n == 0 ? 0 : -1;
}

int main(void) {
  const char *vars[] = {"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR"};
  for (size_t i = 0; i < sizeof vars / sizeof *vars; ++i)
    printf("%s=%s\n", vars[i], getenv(vars[i]) ? getenv(vars[i]) : "(unset)");
  printf("MASTER_PORT set: %s\n", getenv("MASTER_PORT") ? "yes" : "no");
  if (strcmp(getenv("RANK"), "0") != 0)
    return 0;
  const char *at = strchr(getenv("LOCKSTEP_COORDINATOR"), '@') + 1;
  char host[64];
  snprintf(host, sizeof host, "%.*s", (int)(strrchr(at, ':') - at), at);
  int port = atoi(strrchr(at, ':') + 1);

  unsigned char not_hello[5] = {1, 0, 0, 0, 4}; /* a well-formed event frame first */
  unsigned char huge[5] = {0xff, 0xff, 0xff, 0x7f, 1};
  unsigned char hello[4 + 1 + 32 + 2 + 1 + 4 * 3 + 8 + 2] = {0};
  uint32_t length = sizeof hello - 4;
  memcpy(hello, &length, 4);
  hello[4] = 1;              /* type: hello */
  memset(hello + 5, 0xab, 32); /* a wrong token */
  hello[37] = 2;             /* protocol version 2 */
  int world = atoi(getenv("WORLD_SIZE"));
  memcpy(hello + 40 + 4, &world, 4);
  const char garbage[] = "GET / HTTP/1.0\r\n\r\n";
  struct { const char *name; const void *data; size_t size; } cases[] = {
      {"silent", NULL, 0},
      {"garbage", garbage, sizeof garbage - 1},
      {"not-hello", not_hello, sizeof not_hello},
      {"wrong-token", hello, sizeof hello},
      {"oversized", huge, sizeof huge},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i)
    printf("probe %s: %s\n", cases[i].name,
           knock(host, port, cases[i].data, cases[i].size) == 0 ? "refused" : "NOT REFUSED");
  return 0;
}
