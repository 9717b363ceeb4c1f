/*
 * System V shared memory: shmget, shmat, shmdt, shmctl (IPC_STAT,
 * IPC_SET, IPC_RMID).  A segment is a nameless tmpfs inode
 * (INODE_SYSV_SHM, up to a /tmp file's 2 MiB) and an attach a MAP_SHARED
 * area of it (VMA_FILE_SHARED, mm/fault.c), so fork shares attaches and
 * shm_nattch counts the areas mapping it.  IPC_RMID frees the id and the
 * key at once; the memory goes with the last detach (vfs_release).  At
 * most SEGS_MAX segments (Linux's SHMMNI is 4096: ENOSPC beyond either).
 */
#include "fs/file.h"
#include "fs/sysv_ipc.h"
#include "lib/string.h"
#include "mm/layout.h"
#include "mm/mm.h"
#include "proc/process.h"
#include "sys/errno.h"
#include "sys/syscalls.h"
#include "sys/uaccess.h"

#define SHM_RDONLY 010000
#define SHM_RND 020000
#define SHM_REMAP 040000
#define SHM_EXEC 0100000
#define SHMLBA 4096
#define SEGS_MAX 64
#define SEG_BYTES_MAX (2ull << 20) /* a /tmp file's limit (fs/regfile.c) */

struct shmid_ds_user {
	struct ipc_perm_user perm;
	uint64_t segsz;
	int64_t atime, dtime, ctime;
	int32_t cpid, lpid;
	uint64_t nattch, unused[2];
};
_Static_assert(sizeof(struct shmid_ds_user) == 112, "struct shmid64_ds of x86-64 Linux");

struct seg {
	struct inode *inode; /* NULL: a free slot */
	int32_t key;
	uint32_t uid, gid, cuid, cgid, mode;
	uint16_t seq;
	int64_t atime, dtime, ctime;
	int cpid, lpid;
};

static struct seg segs[SEGS_MAX];

static int seg_id(const struct seg *s)
{
	return s->seq * SEGS_MAX + (int)(s - segs);
}

static struct seg *seg_of(uint64_t id)
{
	struct seg *s;

	if ((int64_t)id < 0 || (int)id < 0)
		return 0;
	s = &segs[(int)id % SEGS_MAX];
	return s->inode && seg_id(s) == (int)id ? s : 0;
}

static long seg_create(int32_t key, uint64_t size, uint32_t flg)
{
	struct seg *s = 0;
	struct inode *n;
	char name[16] = "SYSV";
	uint16_t seq;
	unsigned i;

	if (size < 1 || size > SEG_BYTES_MAX)
		return size ? -ENOSPC : -EINVAL;
	for (i = 0; i < SEGS_MAX && !s; i++)
		if (!segs[i].inode)
			s = &segs[i];
	if (!s)
		return -ENOSPC;
	for (i = 0; i < 8; i++)
		name[4 + i] = "0123456789abcdef"[((uint32_t)key >> (28 - 4 * i)) & 0xf];
	n = vfs_create(0, name, 12, S_IFREG | (flg & 0777));
	if (!n)
		return -ENOMEM;
	n->ops = &regfile_tmp_ops;
	n->flags = INODE_WRITABLE | INODE_SYSV_SHM;
	n->dev = VFS_DEV_SHM;
	regfile_truncate(n, size);
	seq = (uint16_t)(s->seq + 1);
	*s = (struct seg){.inode = n, .key = key, .mode = flg & 0777, .seq = seq,
			  .ctime = sysv_now_sec(), .cpid = current->tgid};
	return seg_id(s);
}

SYSCALL_DEFINE3(shmget, int32_t, key, uint64_t, size, uint32_t, flg)
{
	unsigned i;

	if (key != IPC_PRIVATE) {
		for (i = 0; i < SEGS_MAX; i++) {
			struct seg *s = &segs[i];

			if (!s->inode || s->key != key)
				continue;
			if ((flg & IPC_CREAT) && (flg & IPC_EXCL))
				return -EEXIST;
			if (size > s->inode->size)
				return -EINVAL;
			return seg_id(s);
		}
		if (!(flg & IPC_CREAT))
			return -ENOENT;
	}
	return seg_create(key, size, flg);
}

SYSCALL_DEFINE3(shmat, uint64_t, shmid, uint64_t, shmaddr, uint32_t, flg)
{
	struct seg *s = seg_of(shmid);
	uint64_t addr = shmaddr, len;
	struct mm *mm = current->mm;
	struct vma v = {.kind = VMA_FILE_SHARED, .file_end = UINT64_MAX};
	long err;

	if (!s)
		return -EINVAL;
	len = ALIGN_UP(s->inode->size, PAGE_SIZE);
	if (addr && (flg & SHM_RND))
		addr = ALIGN_DOWN(addr, SHMLBA);
	if (addr & (PAGE_SIZE - 1))
		return -EINVAL;
	if (!addr) {
		if (flg & SHM_REMAP)
			return -EINVAL;
		addr = mm_find_free(mm, len);
		if (!addr)
			return -ENOMEM;
	} else if (!user_range_ok(addr, len) || addr < MMAP_MIN_ADDR) {
		return -EINVAL;
	} else if (!vma_range_free(&mm->vmas, addr, addr + len)) {
		if (!(flg & SHM_REMAP))
			return -EINVAL;
		err = mm_unmap(mm, addr, addr + len);
		if (err)
			return err;
	}
	v.start = addr;
	v.end = addr + len;
	v.prot = VMA_R | (flg & SHM_RDONLY ? 0 : VMA_W) | (flg & SHM_EXEC ? VMA_X : 0);
	v.file = s->inode;
	err = mm_map(mm, &v);
	if (err)
		return err;
	s->atime = sysv_now_sec();
	s->lpid = current->tgid;
	return (long)addr;
}

/* Unmaps the attach starting at addr: the areas of its segment from there on. */
SYSCALL_DEFINE1(shmdt, uint64_t, shmaddr)
{
	struct mm *mm = current->mm;
	int i = vma_find(&mm->vmas, shmaddr);
	const struct inode *n;
	uint64_t end;
	unsigned j;

	if ((shmaddr & (PAGE_SIZE - 1)) || i < 0)
		return -EINVAL;
	n = mm->vmas.v[i].file;
	if (mm->vmas.v[i].kind != VMA_FILE_SHARED || mm->vmas.v[i].start != shmaddr ||
	    !(n->flags & INODE_SYSV_SHM) || mm->vmas.v[i].pgoff)
		return -EINVAL;
	end = mm->vmas.v[i].end;
	for (j = (unsigned)i + 1; j < mm->vmas.n && mm->vmas.v[j].start == end &&
				 mm->vmas.v[j].file == n; j++)
		end = mm->vmas.v[j].end;
	for (j = 0; j < SEGS_MAX; j++)
		if (segs[j].inode == n) {
			segs[j].dtime = sysv_now_sec();
			segs[j].lpid = current->tgid;
		}
	return mm_unmap(mm, shmaddr, end);
}

SYSCALL_DEFINE3(shmctl, uint64_t, shmid, uint64_t, cmd, uint64_t, buf)
{
	struct seg *s = seg_of(shmid);
	struct shmid_ds_user ds;

	if (!s)
		return -EINVAL;
	switch (cmd & ~(uint64_t)IPC_64) {
	case IPC_STAT:
		memset(&ds, 0, sizeof(ds));
		ds.perm = (struct ipc_perm_user){.key = s->key, .uid = s->uid, .gid = s->gid,
						 .cuid = s->cuid, .cgid = s->cgid, .mode = s->mode,
						 .seq = s->seq};
		ds.segsz = s->inode->size;
		ds.atime = s->atime;
		ds.dtime = s->dtime;
		ds.ctime = s->ctime;
		ds.cpid = s->cpid;
		ds.lpid = s->lpid;
		ds.nattch = mm_file_areas(s->inode);
		return copy_to_user(buf, &ds, sizeof(ds));
	case IPC_SET:
		if (copy_from_user(&ds, buf, sizeof(ds)))
			return -EFAULT;
		s->uid = ds.perm.uid;
		s->gid = ds.perm.gid;
		s->mode = ds.perm.mode & 0777;
		s->ctime = sysv_now_sec();
		return 0;
	case IPC_RMID:
		/* The id and key go now; the memory with the last detach. */
		s->inode->nlink = 0;
		vfs_release(s->inode);
		s->inode = 0;
		return 0;
	default:
		return -EINVAL;
	}
}
