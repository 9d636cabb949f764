// k8s-check: builds each kustomize overlay and validates every object strictly against the
// Kubernetes API types of the k8s.io/api version pinned in go.mod (unknown or duplicate fields,
// wrong types and unknown kinds are errors), then checks the policy Haven promises operators.
//
//	k8s-check -apps user,quote,billing,notification,compliance,gateway -gateway gateway \
//	  -callers user=quote+billing,billing=compliance \
//	  -stores mongodb=user+quote+gateway -mongodb mongodb -kafka haven=user+quote \
//	  -overlay dev=/path/to/k8s/overlays/dev -overlay production=/path/... -scaled production
//
// Exit 0 when every overlay passes, 1 with one line per problem otherwise.
//
//	k8s-check -render /out/dir -overlay dev=/path/... -overlay production=/path/...
//
// writes what kustomize builds for each overlay to /out/dir/<overlay>.yaml, as `kustomize build` prints it, and
// checks nothing: tests and reviews read the deployed objects from kustomize itself.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// Custom resources Haven deploys whose schemas are not part of k8s.io/api: accepted by kind, not validated.
var customKinds = map[string]bool{
	"kafka.strimzi.io/v1beta2/Kafka":         true,
	"kafka.strimzi.io/v1beta2/KafkaNodePool": true,
	"kafka.strimzi.io/v1beta2/KafkaUser":     true,
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

type object struct {
	kind, name string
	value      runtime.Object
	// custom: a custom resource's fields as JSON decodes them (its schema is not in k8s.io/api).
	custom map[string]any
}

// access: who may reach what, from the flags.
type access struct {
	gateway string
	// callers: the apps besides the gateway that ask an app directly.
	callers map[string][]string
	// stores: each data store's StatefulSet and the apps that use it.
	stores map[string][]string
	// kafka: the Strimzi Kafka resource and the apps that use it.
	kafkaName    string
	kafkaClients []string
	// mongodb: the data store (in stores) that is MongoDB, whose clients sign in.
	mongodb string
}

// lists: "name=a+b,name2=c" as a map of lists.
func lists(flagValue string) map[string][]string {
	result := map[string][]string{}
	for _, spec := range strings.Split(flagValue, ",") {
		if name, list, ok := strings.Cut(spec, "="); ok && list != "" {
			result[name] = strings.Split(list, "+")
		}
	}
	return result
}

type report struct{ problems []string }

func (r *report) add(overlay, format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf("%s: %s", overlay, fmt.Sprintf(format, args...)))
}

func main() {
	var overlays listFlag
	apps := flag.String("apps", "", "comma-separated app names (Deployments) the one service list says are deployed")
	gateway := flag.String("gateway", "gateway", "the app allowed to reach every other")
	callersFlag := flag.String("callers", "", "app=caller+caller,… : the apps besides the gateway that ask an app directly")
	storesFlag := flag.String("stores", "", "statefulset=app+app,… : each data store and the apps that use it")
	kafkaFlag := flag.String("kafka", "", "name=app+app : the Strimzi Kafka resource and the apps that use it")
	mongodbFlag := flag.String("mongodb", "", "the data store in -stores that is MongoDB: it runs with --auth, its apps sign in with a URL from a Secret of their own")
	scaled := flag.String("scaled", "", "comma-separated overlays that must have a PodDisruptionBudget and a HorizontalPodAutoscaler per app")
	flag.Var(&overlays, "overlay", "name=dir of a kustomize overlay (repeatable)")
	renderDir := flag.String("render", "", "write each overlay's build to <dir>/<overlay>.yaml instead of checking")
	flag.Parse()
	if *renderDir != "" {
		os.Exit(render(*renderDir, overlays))
	}
	if *apps == "" || len(overlays) == 0 {
		fmt.Fprintln(os.Stderr, "usage: k8s-check -apps a,b,c -overlay name=dir [-overlay …] [-scaled name,…]")
		os.Exit(2)
	}
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, batchv1.AddToScheme, policyv1.AddToScheme, autoscalingv2.AddToScheme, networkingv1.AddToScheme} {
		if err := add(scheme); err != nil {
			panic(err)
		}
	}
	decoder := serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDeserializer()
	who := access{gateway: *gateway, callers: lists(*callersFlag), stores: lists(*storesFlag), mongodb: *mongodbFlag}
	for name, clients := range lists(*kafkaFlag) {
		who.kafkaName, who.kafkaClients = name, clients
	}
	scaledSet := map[string]bool{}
	for _, name := range strings.Split(*scaled, ",") {
		scaledSet[name] = true
	}
	r := &report{}
	for _, spec := range overlays {
		name, dir, ok := strings.Cut(spec, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "-overlay %q: want name=dir\n", spec)
			os.Exit(2)
		}
		objects := build(r, name, dir, decoder)
		checkPolicy(r, name, objects, strings.Split(*apps, ","), who, scaledSet[name])
		fmt.Printf("%s: %d objects built and decoded strictly\n", name, len(objects))
	}
	if len(r.problems) > 0 {
		for _, problem := range r.problems {
			fmt.Println("FAIL " + problem)
		}
		fmt.Printf("%d problem(s)\n", len(r.problems))
		os.Exit(1)
	}
	fmt.Println("every overlay passes")
}

// render: each overlay's build as YAML, one file per overlay; 1 when an overlay does not build.
func render(dir string, overlays []string) int {
	status := 0
	for _, spec := range overlays {
		name, overlayDir, ok := strings.Cut(spec, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "-overlay %q: want name=dir\n", spec)
			return 2
		}
		resources, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), overlayDir)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: kustomize build %s: %v\n", name, overlayDir, err)
			status = 1
			continue
		}
		doc, err := resources.AsYaml()
		if err == nil {
			err = os.WriteFile(fmt.Sprintf("%s/%s.yaml", dir, name), doc, 0o644)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			status = 1
		}
	}
	return status
}

func build(r *report, overlay, dir string, decoder runtime.Decoder) []object {
	resources, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		r.add(overlay, "kustomize build %s: %v", dir, err)
		return nil
	}
	var objects []object
	for _, resource := range resources.Resources() {
		id := fmt.Sprintf("%s/%s", resource.GetKind(), resource.GetName())
		doc, err := resource.AsYAML()
		if err != nil {
			r.add(overlay, "%s: %v", id, err)
			continue
		}
		gvk := resource.GetGvk()
		asJSON, err := yaml.YAMLToJSON(doc)
		if err != nil {
			r.add(overlay, "%s: %v", id, err)
			continue
		}
		if customKinds[gvk.ApiVersion()+"/"+gvk.Kind] {
			var fields map[string]any
			if err := json.Unmarshal(asJSON, &fields); err != nil {
				r.add(overlay, "%s: %v", id, err)
				continue
			}
			objects = append(objects, object{kind: resource.GetKind(), name: resource.GetName(), custom: fields})
			continue
		}
		value, _, err := decoder.Decode(asJSON, nil, nil)
		if err != nil {
			r.add(overlay, "%s does not match the Kubernetes API: %v", id, err)
			continue
		}
		objects = append(objects, object{kind: resource.GetKind(), name: resource.GetName(), value: value})
	}
	return objects
}

// podTemplates: every workload's pod template, by workload name.
func podTemplates(objects []object) map[string]*corev1.PodTemplateSpec {
	pods := map[string]*corev1.PodTemplateSpec{}
	for _, o := range objects {
		switch w := o.value.(type) {
		case *appsv1.Deployment:
			pods[o.kind+"/"+o.name] = &w.Spec.Template
		case *appsv1.StatefulSet:
			pods[o.kind+"/"+o.name] = &w.Spec.Template
		case *batchv1.CronJob:
			pods[o.kind+"/"+o.name] = &w.Spec.JobTemplate.Spec.Template
		}
	}
	return pods
}

var secretWords = []string{"SECRET", "PASSWORD", "PASS", "PRIVATE_KEY", "TOKEN", "API_KEY"}

func looksSecret(name string) bool {
	upper := strings.ToUpper(name)
	if strings.HasSuffix(upper, "_FILE") {
		return false
	}
	for _, word := range secretWords {
		if strings.HasSuffix(upper, word) {
			return true
		}
	}
	return false
}

func checkPolicy(r *report, overlay string, objects []object, apps []string, who access, scaled bool) {
	deployments := map[string]*appsv1.Deployment{}
	for _, o := range objects {
		if d, ok := o.value.(*appsv1.Deployment); ok {
			deployments[o.name] = d
		}
		if cm, ok := o.value.(*corev1.ConfigMap); ok {
			for key, value := range cm.Data {
				if looksSecret(key) {
					r.add(overlay, "ConfigMap/%s holds %s: secrets belong in a Secret", o.name, key)
				} else if urlWithPassword.MatchString(value) {
					r.add(overlay, "ConfigMap/%s %s holds a URL with a password: secrets belong in a Secret", o.name, key)
				}
			}
		}
	}
	for _, o := range objects {
		if job, ok := o.value.(*batchv1.CronJob); ok {
			checkHardened(r, overlay, "CronJob/"+o.name, job.Spec.JobTemplate.Spec.Template.Spec)
		}
	}
	for name, pod := range podTemplates(objects) {
		for _, c := range pod.Spec.Containers {
			if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() ||
				c.Resources.Limits.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
				r.add(overlay, "%s container %s: cpu and memory requests and limits are required", name, c.Name)
			}
			for _, env := range c.Env {
				if env.Value != "" && looksSecret(env.Name) {
					r.add(overlay, "%s container %s: %s is a literal; take it from a Secret", name, c.Name, env.Name)
				}
			}
		}
	}
	appSet := map[string]bool{}
	for _, app := range apps {
		appSet[app] = true
		d, ok := deployments[app]
		if !ok {
			r.add(overlay, "the service list has %s, but no Deployment %s is deployed", app, app)
			continue
		}
		checkApp(r, overlay, app, d)
	}
	for name, d := range deployments {
		if strings.HasPrefix(appImage(d), "haven/") || strings.Contains(appImage(d), "/haven/") {
			if !appSet[name] {
				r.add(overlay, "Deployment %s runs a Haven image but is not in the service list", name)
			}
		}
	}
	if scaled {
		checkScaling(r, overlay, objects, apps, deployments)
	}
	checkNetwork(r, overlay, objects, apps, who, deployments)
	if who.mongodb != "" {
		checkMongo(r, overlay, objects, who.mongodb, who.stores[who.mongodb], deployments)
	}
}

// urlWithPassword: scheme://user:password@…
var urlWithPassword = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]+:[^/\s@]+@`)

// mongoURLWithCredentials: a MongoDB connection string that names a user and a password.
var mongoURLWithCredentials = regexp.MustCompile(`^mongodb(\+srv)?://[^/:@]+:[^/@]+@`)

// checkMongo: MongoDB runs with authentication and a root user whose password comes from a Secret; every app
// that uses it signs in with MONGO_URL taken from a Secret of its own (so one app's credential is not
// another's), which the MongoDB pod mounts to create that app's user. Where the URL's value is in the build
// (a literal generator, not an operator's git-ignored file) it must name a user and a password.
func checkMongo(r *report, overlay string, objects []object, name string, clients []string, deployments map[string]*appsv1.Deployment) {
	var store *appsv1.StatefulSet
	secrets := map[string]*corev1.Secret{}
	configMaps := map[string]*corev1.ConfigMap{}
	for _, o := range objects {
		switch v := o.value.(type) {
		case *appsv1.StatefulSet:
			if o.name == name {
				store = v
			}
		case *corev1.Secret:
			secrets[o.name] = v
		case *corev1.ConfigMap:
			configMaps[o.name] = v
		}
	}
	if store == nil || len(store.Spec.Template.Spec.Containers) == 0 {
		r.add(overlay, "no StatefulSet %s (MongoDB)", name)
		return
	}
	mongod := store.Spec.Template.Spec.Containers[0]
	where := fmt.Sprintf("StatefulSet/%s container %s", name, mongod.Name)
	arguments := append(append([]string{}, mongod.Command...), mongod.Args...)
	if !containsString(arguments, "--auth") || containsString(arguments, "--noauth") {
		r.add(overlay, "%s runs MongoDB without authentication: any pod that reaches it reads every database; add --auth to its args", where)
	}
	if ref := secretKeyRef(mongod, "MONGO_INITDB_ROOT_PASSWORD"); ref == nil {
		r.add(overlay, "%s: MONGO_INITDB_ROOT_PASSWORD must come from a Secret (env valueFrom.secretKeyRef): without a root user no app's user is made", where)
	}
	mounted := map[string]bool{}
	for _, v := range store.Spec.Template.Spec.Volumes {
		if v.Secret != nil {
			mounted[v.Secret.SecretName] = true
		}
		if v.Projected != nil {
			for _, source := range v.Projected.Sources {
				if source.Secret != nil {
					mounted[source.Secret.Name] = true
				}
			}
		}
	}
	urlOwners := map[string][]string{}
	for _, app := range clients {
		d, ok := deployments[app]
		if !ok || len(d.Spec.Template.Spec.Containers) == 0 {
			continue
		}
		c := d.Spec.Template.Spec.Containers[0]
		at := fmt.Sprintf("Deployment/%s container %s", app, c.Name)
		ref, problem := mongoURLSource(c, configMaps)
		if ref == nil {
			r.add(overlay, "%s: MONGO_URL %s; take it from a Secret of the app's own (env valueFrom.secretKeyRef)", at, problem)
			continue
		}
		urlOwners[ref.Name] = append(urlOwners[ref.Name], app)
		secret, ok := secrets[ref.Name]
		if !ok {
			r.add(overlay, "%s: MONGO_URL comes from Secret %s, which the overlay does not make", at, ref.Name)
			continue
		}
		if !mounted[ref.Name] {
			r.add(overlay, "StatefulSet/%s does not mount Secret %s, so no database user is made for %s", name, ref.Name, app)
		}
		value, known := secret.Data[ref.Key]
		if text, ok := secret.StringData[ref.Key]; ok {
			value, known = []byte(text), true
		}
		if known && !mongoURLWithCredentials.Match(value) {
			r.add(overlay, "%s: MONGO_URL in Secret %s has no user name and password: it would reach MongoDB as nobody", at, ref.Name)
		}
	}
	shared := make([]string, 0, len(urlOwners))
	for secret := range urlOwners {
		shared = append(shared, secret)
	}
	sort.Strings(shared)
	for _, secret := range shared {
		if owners := urlOwners[secret]; len(owners) > 1 {
			sort.Strings(owners)
			r.add(overlay, "Secret %s holds the database URL of %s: each app has its own, so one app's credential cannot read another's data", secret, strings.Join(owners, " and "))
		}
	}
}

// secretKeyRef: the Secret key a container's variable is taken from, nil when it is not an env secretKeyRef.
func secretKeyRef(c corev1.Container, variable string) *corev1.SecretKeySelector {
	var ref *corev1.SecretKeySelector
	for _, env := range c.Env {
		if env.Name != variable {
			continue
		}
		ref = nil // the last entry of a name wins
		if env.ValueFrom != nil && env.ValueFrom.SecretKeyRef != nil {
			ref = env.ValueFrom.SecretKeyRef
		}
	}
	return ref
}

// mongoURLSource: the Secret key an app's MONGO_URL comes from, or why it does not come from a Secret.
func mongoURLSource(c corev1.Container, configMaps map[string]*corev1.ConfigMap) (*corev1.SecretKeySelector, string) {
	problem := "is not set, so the app connects to its default without credentials"
	for _, from := range c.EnvFrom {
		if from.ConfigMapRef == nil {
			continue
		}
		if cm, ok := configMaps[from.ConfigMapRef.Name]; ok {
			if _, ok := cm.Data[strings.TrimPrefix("MONGO_URL", from.Prefix)]; ok && strings.HasPrefix("MONGO_URL", from.Prefix) {
				problem = "comes from ConfigMap " + from.ConfigMapRef.Name
			}
		}
	}
	for _, env := range c.Env {
		if env.Name != "MONGO_URL" {
			continue
		}
		switch {
		case env.ValueFrom != nil && env.ValueFrom.SecretKeyRef != nil:
			problem = ""
		case env.ValueFrom != nil && env.ValueFrom.ConfigMapKeyRef != nil:
			problem = "comes from ConfigMap " + env.ValueFrom.ConfigMapKeyRef.Name
		case env.ValueFrom != nil:
			problem = "does not come from a Secret"
		default:
			problem = "is a literal"
		}
	}
	if problem != "" {
		return nil, problem
	}
	return secretKeyRef(c, "MONGO_URL"), ""
}

func appImage(d *appsv1.Deployment) string {
	if len(d.Spec.Template.Spec.Containers) == 0 {
		return ""
	}
	return d.Spec.Template.Spec.Containers[0].Image
}

func probePath(p *corev1.Probe) string {
	if p == nil || p.HTTPGet == nil {
		return ""
	}
	return p.HTTPGet.Path
}

func checkApp(r *report, overlay, app string, d *appsv1.Deployment) {
	for _, c := range d.Spec.Template.Spec.Containers {
		where := fmt.Sprintf("Deployment/%s container %s", app, c.Name)
		if probePath(c.LivenessProbe) != "/healthz" {
			r.add(overlay, "%s: liveness probe must GET /healthz", where)
		}
		if probePath(c.ReadinessProbe) != "/readyz" {
			r.add(overlay, "%s: readiness probe must GET /readyz", where)
		}
	}
	checkHardened(r, overlay, "Deployment/"+app, d.Spec.Template.Spec)
}

// checkHardened: every container of a Haven workload (an app, a scheduled job) runs as non-root, on a read-only
// root file system, without privilege escalation.
func checkHardened(r *report, overlay, workload string, pod corev1.PodSpec) {
	podNonRoot := pod.SecurityContext != nil && pod.SecurityContext.RunAsNonRoot != nil && *pod.SecurityContext.RunAsNonRoot
	for _, c := range pod.Containers {
		where := fmt.Sprintf("%s container %s", workload, c.Name)
		sc := c.SecurityContext
		nonRoot := podNonRoot || (sc != nil && sc.RunAsNonRoot != nil && *sc.RunAsNonRoot)
		if !nonRoot {
			r.add(overlay, "%s: must run as non-root (runAsNonRoot: true)", where)
		}
		if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			r.add(overlay, "%s: the root file system must be read-only", where)
		}
		if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
			r.add(overlay, "%s: allowPrivilegeEscalation must be false", where)
		}
	}
}

func selects(selector *metav1.LabelSelector, podLabels map[string]string) bool {
	if selector == nil {
		return false
	}
	s, err := metav1.LabelSelectorAsSelector(selector)
	return err == nil && s.Matches(labels.Set(podLabels))
}

func checkScaling(r *report, overlay string, objects []object, apps []string, deployments map[string]*appsv1.Deployment) {
	for _, app := range apps {
		d, ok := deployments[app]
		if !ok {
			continue
		}
		hasPDB, hasHPA := false, false
		for _, o := range objects {
			switch v := o.value.(type) {
			case *policyv1.PodDisruptionBudget:
				hasPDB = hasPDB || selects(v.Spec.Selector, d.Spec.Template.Labels)
			case *autoscalingv2.HorizontalPodAutoscaler:
				hasHPA = hasHPA || (v.Spec.ScaleTargetRef.Kind == "Deployment" && v.Spec.ScaleTargetRef.Name == app)
			}
		}
		if !hasPDB {
			r.add(overlay, "Deployment/%s has no PodDisruptionBudget", app)
		}
		if !hasHPA {
			r.add(overlay, "Deployment/%s has no HorizontalPodAutoscaler", app)
		}
	}
}

// checkNetwork: every app other than the gateway, and every data store, is selected by at least one
// NetworkPolicy with an Ingress section; every ingress rule of every policy selecting it admits only pods
// of the apps allowed there (policies add up, so one open rule anywhere opens it); and each of those is
// admitted by some rule, since one left out would find its requests dropped. Kafka, run by Strimzi, is
// guarded by its listeners' networkPolicyPeers (Strimzi writes the NetworkPolicy): the same rules apply.
func checkNetwork(r *report, overlay string, objects []object, apps []string, who access, deployments map[string]*appsv1.Deployment) {
	if _, ok := deployments[who.gateway]; !ok {
		r.add(overlay, "no Deployment %s (the gateway)", who.gateway)
		return
	}
	var policies []*networkingv1.NetworkPolicy
	statefulSets := map[string]*appsv1.StatefulSet{}
	for _, o := range objects {
		switch v := o.value.(type) {
		case *networkingv1.NetworkPolicy:
			policies = append(policies, v)
		case *appsv1.StatefulSet:
			statefulSets[o.name] = v
		}
	}
	sort.Strings(apps)
	guard := ingressGuard{r: r, overlay: overlay, apps: apps, deployments: deployments, policies: policies}
	for _, app := range apps {
		d, ok := deployments[app]
		if app == who.gateway || !ok {
			continue
		}
		guard.check(app, d.Spec.Template.Labels, append([]string{who.gateway}, who.callers[app]...), "asks")
	}
	stores := make([]string, 0, len(who.stores))
	for store := range who.stores {
		stores = append(stores, store)
	}
	sort.Strings(stores)
	for _, store := range stores {
		s, ok := statefulSets[store]
		if !ok {
			r.add(overlay, "no StatefulSet %s (a data store)", store)
			continue
		}
		guard.check(store, s.Spec.Template.Labels, who.stores[store], "uses")
	}
	if who.kafkaName != "" {
		guard.checkKafka(objects, who.kafkaName, who.kafkaClients)
	}
}

// ingressGuard checks who may reach a target, against the overlay's policies and apps.
type ingressGuard struct {
	r           *report
	overlay     string
	apps        []string
	deployments map[string]*appsv1.Deployment
	policies    []*networkingv1.NetworkPolicy
}

// admit: the apps a rule's peers let in, and whether every peer names pods of allowed apps only (pods of
// this namespace, picked by label: no address ranges, no other namespaces, no empty selector).
func (g ingressGuard) admit(peers []networkingv1.NetworkPolicyPeer, allowed []string) ([]string, bool) {
	var admitted []string
	for _, peer := range peers {
		if peer.IPBlock != nil || peer.NamespaceSelector != nil || peer.PodSelector == nil ||
			len(peer.PodSelector.MatchLabels)+len(peer.PodSelector.MatchExpressions) == 0 {
			return nil, false
		}
		for _, candidate := range g.apps {
			if c, ok := g.deployments[candidate]; ok && selects(peer.PodSelector, c.Spec.Template.Labels) {
				if !containsString(allowed, candidate) {
					return nil, false
				}
				admitted = append(admitted, candidate)
			}
		}
	}
	return admitted, true
}

func (g ingressGuard) check(target string, podLabels map[string]string, allowed []string, verb string) {
	allowedText := strings.Join(allowed, ", ")
	admitted := map[string]bool{}
	isolated := false
	for _, p := range g.policies {
		if !selects(&p.Spec.PodSelector, podLabels) && len(p.Spec.PodSelector.MatchLabels)+len(p.Spec.PodSelector.MatchExpressions) > 0 {
			continue
		}
		if len(p.Spec.PolicyTypes) > 0 && !contains(p.Spec.PolicyTypes, networkingv1.PolicyTypeIngress) {
			continue
		}
		isolated = true
		for i, rule := range p.Spec.Ingress {
			if len(rule.From) == 0 {
				g.r.add(g.overlay, "NetworkPolicy/%s ingress rule %d lets anyone reach %s; only %s may", p.Name, i, target, allowedText)
				continue
			}
			peerApps, ok := g.admit(rule.From, allowed)
			if !ok {
				g.r.add(g.overlay, "NetworkPolicy/%s ingress rule %d lets pods other than %s reach %s", p.Name, i, allowedText, target)
				continue
			}
			for _, app := range peerApps {
				admitted[app] = true
			}
		}
	}
	if !isolated {
		g.r.add(g.overlay, "no NetworkPolicy limits who reaches %s; only %s may", target, allowedText)
		return
	}
	g.requireAdmitted(admitted, allowed, target, verb)
}

func (g ingressGuard) requireAdmitted(admitted map[string]bool, allowed []string, target, verb string) {
	for _, app := range allowed {
		if !admitted[app] {
			g.r.add(g.overlay, "no NetworkPolicy rule lets %s reach %s, which it %s", app, target, verb)
		}
	}
}

// checkKafka: each listener of the Strimzi Kafka resource names its peers (without networkPolicyPeers Strimzi lets
// every pod of the cluster connect) and signs its clients in, and the broker checks ACLs.
func (g ingressGuard) checkKafka(objects []object, name string, clients []string) {
	target := "Kafka/" + name
	var kafka map[string]any
	for _, o := range objects {
		if o.kind == "Kafka" && o.name == name {
			kafka = o.custom
		}
	}
	if kafka == nil {
		g.r.add(g.overlay, "no Kafka %s (the event broker)", name)
		return
	}
	spec, _ := kafka["spec"].(map[string]any)
	broker, _ := spec["kafka"].(map[string]any)
	listeners, _ := broker["listeners"].([]any)
	allowedText := strings.Join(clients, ", ")
	// Without authorization every signed-in client may publish anywhere: a forged event from any admitted pod.
	if authorization, _ := broker["authorization"].(map[string]any); authorization["type"] == nil {
		g.r.add(g.overlay, "%s has no authorization (ACLs): any client may publish on any topic", target)
	}
	for _, item := range listeners {
		listener, _ := item.(map[string]any)
		listenerName, _ := listener["name"].(string)
		if authentication, _ := listener["authentication"].(map[string]any); authentication["type"] == nil {
			g.r.add(g.overlay, "%s listener %s lets clients connect without signing in (no authentication)", target, listenerName)
		}
		var peers []networkingv1.NetworkPolicyPeer
		if raw, ok := listener["networkPolicyPeers"]; ok {
			encoded, _ := json.Marshal(raw)
			if err := json.Unmarshal(encoded, &peers); err != nil {
				g.r.add(g.overlay, "%s listener %s: networkPolicyPeers: %v", target, listenerName, err)
				continue
			}
		}
		if len(peers) == 0 {
			g.r.add(g.overlay, "%s listener %s lets any pod connect (no networkPolicyPeers); only %s may", target, listenerName, allowedText)
			continue
		}
		peerApps, ok := g.admit(peers, clients)
		if !ok {
			g.r.add(g.overlay, "%s listener %s lets pods other than %s connect", target, listenerName, allowedText)
			continue
		}
		admitted := map[string]bool{}
		for _, app := range peerApps {
			admitted[app] = true
		}
		g.requireAdmitted(admitted, clients, target+" listener "+listenerName, "uses")
	}
}

func containsString(list []string, want string) bool {
	for _, item := range list {
		if item == want {
			return true
		}
	}
	return false
}

func contains(types []networkingv1.PolicyType, want networkingv1.PolicyType) bool {
	for _, t := range types {
		if t == want {
			return true
		}
	}
	return false
}
