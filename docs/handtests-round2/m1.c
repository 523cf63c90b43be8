#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>
#include <sys/wait.h>
static void maps(const char *tag){char b[4096];FILE*f=fopen("/proc/self/maps","r");printf("-- %s\n",tag);while(fgets(b,sizeof b,f)) if(strstr(b,"m1test"))fputs(b,stdout);fclose(f);}
int main(int argc,char**argv){
 int dofork=argc>1;
 int fd=open("/dev/shm/m1test",O_RDWR|O_CREAT|O_TRUNC,0600); ftruncate(fd,65536);
 char buf[16384]; memset(buf,'x',sizeof buf); pwrite(fd,buf,16384,40960);
 char *p=mmap(NULL,45056,PROT_READ|PROT_WRITE,MAP_PRIVATE,fd,0xc000);
 printf("p=%p\n",p);
 if(dofork){pid_t c=fork(); if(!c){_exit(0);} waitpid(c,0,0);}
 int r=mlock2(p+0x7000,4096,0); printf("mlock2=%d\n",r);
 if(dofork){pid_t c=fork(); if(!c){p[0x2000]=1;_exit(0);} waitpid(c,0,0);}
 p[0x2000]=1; p[0x3000]=1;
 maps("before");
 mlockall(MCL_CURRENT|MCL_FUTURE);
 maps("after");
 munlockall();
 unlink("/dev/shm/m1test");
}
