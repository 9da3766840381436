// SPDX-License-Identifier: GPL-2.0
/*
 * ekdisk: module parameters, device creation and removal.
 *
 *   modprobe ekdisk profile=hdd [nr_devices=1] [memory_backed=0|1]
 *                   [capacity_gb=N] [qd=N] [params=NAME=VALUE,...]
 *
 * profile is one of the simulator's devices (elvkit-sim --list), params
 * overrides any of its parameters by the simulator's name. Writing
 * /sys/module/ekdisk/parameters/nr_devices adds or removes devices (the
 * highest numbers go first), also while they are busy: requests in flight
 * complete, later ones fail.
 */
#define pr_fmt(fmt) "ekdisk: " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include "elvkit/version.h"
#include "ekdisk.h"
#include "ekdisk_compat.h"

static char *profile = "hdd";
module_param(profile, charp, 0444);
MODULE_PARM_DESC(profile, "device model: hdd, hdd-laptop, hdd-2002, ssd, null (elvkit-sim --list)");

static bool memory_backed;
module_param(memory_backed, bool, 0444);
MODULE_PARM_DESC(memory_backed, "keep written data (sparse pages, allocated on write) so that it reads back");

static unsigned int capacity_gb;
module_param(capacity_gb, uint, 0444);
MODULE_PARM_DESC(capacity_gb, "capacity in GB (10^9 bytes); 0: the profile's");

static unsigned int qd;
module_param(qd, uint, 0444);
MODULE_PARM_DESC(qd, "device queue depth (hdd: >1 is NCQ); 0: the profile's");

static char *params = "";
module_param(params, charp, 0444);
MODULE_PARM_DESC(params, "any model parameter, NAME=VALUE,... (elvkit-sim --list names them)");

static DEFINE_MUTEX(ekdisk_mutex);
static struct ekdisk *ekdisk_devs[EKDISK_MAX_DEVICES];
static unsigned int nr_devices = 1;
static bool ekdisk_ready;	/* init done: nr_devices writes act */
static int ekdisk_major;
static const struct ek_model_type *ekdisk_type;
static s64 *ekdisk_values;	/* one per model parameter, validated */

static int ekdisk_resize(unsigned int n);

static int nr_devices_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	mutex_lock(&ekdisk_mutex);
	if (!ekdisk_ready)
		nr_devices = n;		/* at load: init checks it */
	else if (n > EKDISK_MAX_DEVICES)
		ret = -EINVAL;
	else
		ret = ekdisk_resize(n);
	mutex_unlock(&ekdisk_mutex);
	return ret;
}

static int nr_devices_get(char *buf, const struct kernel_param *kp)
{
	unsigned int i, n = 0;

	mutex_lock(&ekdisk_mutex);
	for (i = 0; i < EKDISK_MAX_DEVICES; i++)
		n += ekdisk_devs[i] != NULL;
	if (!ekdisk_ready)
		n = nr_devices;
	mutex_unlock(&ekdisk_mutex);
	return sysfs_emit(buf, "%u\n", n);
}

static const struct kernel_param_ops nr_devices_ops = {
	.set = nr_devices_set,
	.get = nr_devices_get,
};
module_param_cb(nr_devices, &nr_devices_ops, NULL, 0644);
MODULE_PARM_DESC(nr_devices, "devices /dev/ekdisk0.. (up to 16); write to add or remove devices");

/* sysfs: /sys/block/ekdiskN/ekdisk/ */
static struct ekdisk *dev_to_ekdisk(struct device *dev)
{
	return dev_to_disk(dev)->private_data;
}

static ssize_t profile_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_to_ekdisk(dev)->type->name);
}
static DEVICE_ATTR_RO(profile);

static ssize_t stats_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct ekdisk *d = dev_to_ekdisk(dev);
	u64 v[8];
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	v[0] = d->nr_reads;
	v[1] = d->nr_writes;
	v[2] = d->nr_flushes;
	v[3] = d->nr_fua;
	v[4] = d->nr_done;
	v[5] = d->model_ns;
	v[6] = d->late_ns;
	v[7] = d->nr_seq;
	spin_unlock_irqrestore(&d->lock, flags);
	return sysfs_emit(buf, "reads %llu writes %llu flushes %llu fua %llu done %llu model_ns %llu late_ns %llu seq %llu\n",
			  v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
}
static DEVICE_ATTR_RO(stats);

/* "BELOW_US COUNT" per bucket of late_hist, the last "inf" */
static ssize_t late_hist_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct ekdisk *d = dev_to_ekdisk(dev);
	u64 v[EKDISK_LATE_BUCKETS];
	unsigned long flags;
	int i, len = 0;

	spin_lock_irqsave(&d->lock, flags);
	memcpy(v, d->late_hist, sizeof(v));
	spin_unlock_irqrestore(&d->lock, flags);
	for (i = 0; i < EKDISK_LATE_BUCKETS - 1; i++)
		len += sysfs_emit_at(buf, len, "%u %llu\n", 1U << i, v[i]);
	return len + sysfs_emit_at(buf, len, "inf %llu\n", v[i]);
}
static DEVICE_ATTR_RO(late_hist);

static ssize_t model_params_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	const struct ek_model_type *t = dev_to_ekdisk(dev)->type;
	int len = 0;
	u32 i;

	for (i = 0; i < t->nr_params; i++)
		len += sysfs_emit_at(buf, len, "%s=%lld\n", t->params[i].name, ekdisk_values[i]);
	return len;
}
static DEVICE_ATTR_RO(model_params);

/*
 * "SECTOR [MS]" arms a requeue (ekdisk.h), "off" disarms it; reads as
 * "SECTOR MS REQUEUED", SECTOR "off" when none is armed. MS 0..60000.
 */
static ssize_t requeue_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct ekdisk *d = dev_to_ekdisk(dev);
	unsigned long flags;
	u64 sector, n;
	unsigned int ms;

	spin_lock_irqsave(&d->lock, flags);
	sector = d->requeue_sector;
	ms = d->requeue_ms;
	n = d->nr_requeued;
	spin_unlock_irqrestore(&d->lock, flags);
	if (sector == EK_U64_MAX)
		return sysfs_emit(buf, "off %u %llu\n", ms, n);
	return sysfs_emit(buf, "%llu %u %llu\n", sector, ms, n);
}

static ssize_t requeue_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct ekdisk *d = dev_to_ekdisk(dev);
	unsigned long long sector = EK_U64_MAX;
	unsigned int ms = 0;
	unsigned long flags;
	char tmp[48], *arg, *ms_arg;

	if (count >= sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, buf, count);
	tmp[count] = '\0';
	arg = strim(tmp);
	if (!strcmp(arg, "off")) {
		ms = READ_ONCE(d->requeue_ms);
	} else {
		ms_arg = strchr(arg, ' ');
		if (ms_arg) {
			*ms_arg = '\0';
			if (kstrtouint(skip_spaces(ms_arg + 1), 10, &ms) || ms > 60000)
				return -EINVAL;
		}
		if (kstrtoull(arg, 10, &sector) || sector >= EK_U64_MAX)
			return -EINVAL;
	}
	spin_lock_irqsave(&d->lock, flags);
	d->requeue_sector = sector;
	d->requeue_ms = ms;
	spin_unlock_irqrestore(&d->lock, flags);
	return count;
}
static DEVICE_ATTR_RW(requeue);

static struct attribute *ekdisk_attrs[] = {
	&dev_attr_profile.attr,
	&dev_attr_stats.attr,
	&dev_attr_late_hist.attr,
	&dev_attr_model_params.attr,
	&dev_attr_requeue.attr,
	NULL,
};

static const struct attribute_group ekdisk_attr_group = {
	.name = "ekdisk",
	.attrs = ekdisk_attrs,
};

static const struct attribute_group *ekdisk_attr_groups[] = {
	&ekdisk_attr_group,
	NULL,
};

static const struct block_device_operations ekdisk_fops = {
	.owner = THIS_MODULE,
};

static int ekdisk_model_param(const char *name)
{
	u32 i;

	for (i = 0; i < ekdisk_type->nr_params; i++)
		if (!strcmp(ekdisk_type->params[i].name, name))
			return i;
	return -1;
}

static struct ekdisk *ekdisk_create(unsigned int index)
{
	struct ekdisk_qprops qp = { .max_hw_sectors = EKDISK_MAX_HW_SECTORS };
	int wce = ekdisk_model_param("wce");
	struct ekdisk *d;
	int ret;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return ERR_PTR(-ENOMEM);
	d->index = index;
	d->type = ekdisk_type;
	d->memory_backed = memory_backed;
	/* A volatile write cache where the model has one and it is on. */
	d->write_cache = wce >= 0 && ekdisk_values[wce];
	spin_lock_init(&d->lock);
	xa_init(&d->pages);
	ek_hrtimer_setup(&d->timer, ekdisk_timer_fn);
	d->armed = EK_U64_MAX;
	d->requeue_sector = EK_U64_MAX;
	ret = -ENOMEM;
	d->model = kvzalloc(d->type->size, GFP_KERNEL);
	if (!d->model)
		goto free_dev;
	ret = -EINVAL;
	if (d->type->init(d->model, ekdisk_values))
		goto free_model;

	d->set.ops = &ekdisk_mq_ops;
	d->set.nr_hw_queues = 1;
	d->set.queue_depth = d->type->queue_depth(d->model);
	d->set.numa_node = NUMA_NO_NODE;
	d->set.cmd_size = sizeof(struct ekdisk_cmd);
	d->set.flags = EKDISK_MQ_FLAGS;
	if (memory_backed)
		d->set.flags |= BLK_MQ_F_BLOCKING;
	d->set.driver_data = d;
	ret = blk_mq_alloc_tag_set(&d->set);
	if (ret)
		goto free_model;

	qp.rotational = d->type->rotational(d->model);
	qp.write_cache = d->write_cache;
	d->disk = ekdisk_alloc_disk(&d->set, d, &qp);
	if (IS_ERR(d->disk)) {
		ret = PTR_ERR(d->disk);
		goto free_set;
	}
	d->disk->major = ekdisk_major;
	d->disk->first_minor = index;
	d->disk->minors = 1;
	d->disk->fops = &ekdisk_fops;
	d->disk->private_data = d;
	snprintf(d->disk->disk_name, DISK_NAME_LEN, "ekdisk%u", index);
	/*
	 * Whole 4 KiB, as a real disk's capacity is (512e drives included):
	 * the block device's page cache takes the largest block size up to
	 * a page that divides the capacity (set_init_blocksize()), and with
	 * 1 KiB blocks buffered writeback sends 1 KiB bios, one segment each,
	 * so a request stops at max_segments KiB (128) instead of 512.
	 */
	set_capacity(d->disk, d->type->capacity(d->model) & ~(sector_t)7);
	/*
	 * The queue depth as SCSI sets it for a SATA disk: without it
	 * blk_queue_depth() answers nr_requests (64 under a scheduler, not
	 * 32), and writeback throttling lets buffered writes hold up to 3/4
	 * of that, twice what it allows on the disk modelled.
	 */
	blk_set_queue_depth(d->disk->queue, d->set.queue_depth);
	d->t0 = ktime_get_ns();
	ret = device_add_disk(NULL, d->disk, ekdisk_attr_groups);
	if (ret)
		goto put_disk;
	pr_info("%s: %s, %llu sectors, queue depth %u, %s, write cache %s%s\n",
		d->disk->disk_name, d->type->name, (u64)get_capacity(d->disk),
		d->set.queue_depth, qp.rotational ? "rotational" : "non-rotational",
		d->write_cache ? "on" : "off", memory_backed ? ", memory backed" : "");
	return d;

put_disk:
	put_disk(d->disk);
free_set:
	blk_mq_free_tag_set(&d->set);
free_model:
	kvfree(d->model);
free_dev:
	kfree(d);
	return ERR_PTR(ret);
}

/*
 * del_gendisk() fails new I/O and waits for what is in flight, which the
 * model (its timer still running) completes; then nothing is left to time.
 */
static void ekdisk_destroy(struct ekdisk *d)
{
	unsigned long flags;

	del_gendisk(d->disk);
	spin_lock_irqsave(&d->lock, flags);
	d->dying = true;
	spin_unlock_irqrestore(&d->lock, flags);
	hrtimer_cancel(&d->timer);
	put_disk(d->disk);
	blk_mq_free_tag_set(&d->set);
	ekdisk_free_pages(d);
	kvfree(d->model);
	kfree(d);
}

/* Under ekdisk_mutex. */
static int ekdisk_resize(unsigned int n)
{
	unsigned int i;

	for (i = EKDISK_MAX_DEVICES; i-- > n;) {
		if (ekdisk_devs[i]) {
			ekdisk_destroy(ekdisk_devs[i]);
			ekdisk_devs[i] = NULL;
		}
	}
	for (i = 0; i < n; i++) {
		struct ekdisk *d;

		if (ekdisk_devs[i])
			continue;
		d = ekdisk_create(i);
		if (IS_ERR(d)) {
			pr_err("creating ekdisk%u failed: %ld\n", i, PTR_ERR(d));
			return PTR_ERR(d);
		}
		ekdisk_devs[i] = d;
	}
	return 0;
}

/* "name=value,..." into ekdisk_values; one-line reason on error. */
static int ekdisk_parse_params(const char *str)
{
	char *buf, *p, *item;
	int ret = 0;

	buf = kstrdup(str, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	p = buf;
	while ((item = strsep(&p, ",")) != NULL) {
		char *name = item, *val = strchr(item, '=');
		const struct ek_model_param *mp;
		s64 v;
		int i;

		if (!*item)
			continue;
		if (!val) {
			pr_err("params: '%s' is not NAME=VALUE\n", item);
			ret = -EINVAL;
			break;
		}
		*val++ = '\0';
		i = ekdisk_model_param(name);
		if (i < 0) {
			pr_err("profile %s has no parameter '%s'\n", ekdisk_type->name, name);
			ret = -EINVAL;
			break;
		}
		mp = &ekdisk_type->params[i];
		if (kstrtoll(val, 0, &v)) {
			pr_err("%s=%s: not an integer\n", name, val);
			ret = -EINVAL;
			break;
		}
		if (v < mp->min || v > mp->max) {
			pr_err("%s=%lld is out of range %lld..%lld %s\n", name, v, mp->min,
			       mp->max, mp->unit);
			ret = -EINVAL;
			break;
		}
		ekdisk_values[i] = v;
	}
	kfree(buf);
	return ret;
}

/* capacity_gb= or qd=: a model parameter of that name, in range. */
static int ekdisk_shorthand(const char *name, unsigned int v)
{
	const struct ek_model_param *mp;
	int i;

	if (!v)
		return 0;
	i = ekdisk_model_param(name);
	if (i < 0) {
		pr_err("profile %s has no parameter '%s'\n", ekdisk_type->name, name);
		return -EINVAL;
	}
	mp = &ekdisk_type->params[i];
	if (v < mp->min || v > mp->max) {
		pr_err("%s=%u is out of range %lld..%lld %s\n", name, v, mp->min, mp->max,
		       mp->unit);
		return -EINVAL;
	}
	ekdisk_values[i] = v;
	return 0;
}

static int ekdisk_configure(void)
{
	void *trial;
	u32 i;
	int ret;

	for (i = 0; ek_models[i]; i++)
		if (!strcmp(ek_models[i]->name, profile))
			ekdisk_type = ek_models[i];
	if (!ekdisk_type) {
		char names[128] = "";

		for (i = 0; ek_models[i]; i++) {
			if (i)
				strlcat(names, ", ", sizeof(names));
			strlcat(names, ek_models[i]->name, sizeof(names));
		}
		pr_err("unknown profile '%s' (%s)\n", profile, names);
		return -EINVAL;
	}
	if (nr_devices > EKDISK_MAX_DEVICES) {
		pr_err("nr_devices=%u is over %d\n", nr_devices, EKDISK_MAX_DEVICES);
		return -EINVAL;
	}
	ekdisk_values = kcalloc(ekdisk_type->nr_params, sizeof(*ekdisk_values), GFP_KERNEL);
	if (!ekdisk_values)
		return -ENOMEM;
	for (i = 0; i < ekdisk_type->nr_params; i++)
		ekdisk_values[i] = ekdisk_type->params[i].def;
	ret = ekdisk_shorthand("capacity_gb", capacity_gb);
	if (!ret)
		ret = ekdisk_shorthand("qd", qd);
	if (!ret)
		ret = ekdisk_parse_params(params);
	if (ret)
		return ret;
	/* Each value is in range; the combination must suit the model too. */
	trial = kvzalloc(ekdisk_type->size, GFP_KERNEL);
	if (!trial)
		return -ENOMEM;
	if (ekdisk_type->init(trial, ekdisk_values)) {
		pr_err("profile %s refuses these parameter values (params=%s)\n",
		       ekdisk_type->name, params);
		ret = -EINVAL;
	}
	kvfree(trial);
	return ret;
}

static int __init ekdisk_init(void)
{
	int ret;

	mutex_lock(&ekdisk_mutex);
	ret = ekdisk_configure();
	if (ret)
		goto out;
	ekdisk_major = register_blkdev(0, "ekdisk");
	if (ekdisk_major < 0) {
		ret = ekdisk_major;
		goto out;
	}
	ret = ekdisk_resize(nr_devices);
	if (ret) {
		ekdisk_resize(0);
		unregister_blkdev(ekdisk_major, "ekdisk");
		goto out;
	}
	ekdisk_ready = true;
out:
	if (ret)
		kfree(ekdisk_values);
	mutex_unlock(&ekdisk_mutex);
	return ret;
}

static void __exit ekdisk_exit(void)
{
	mutex_lock(&ekdisk_mutex);
	ekdisk_ready = false;
	ekdisk_resize(0);
	mutex_unlock(&ekdisk_mutex);
	unregister_blkdev(ekdisk_major, "ekdisk");
	kfree(ekdisk_values);
}

module_init(ekdisk_init);
module_exit(ekdisk_exit);
MODULE_DESCRIPTION("ekdisk: block device with the service times of elvkit's disk models");
MODULE_VERSION(ELVKIT_VERSION);
MODULE_LICENSE("GPL");
