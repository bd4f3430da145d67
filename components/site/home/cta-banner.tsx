import { AnchorLink } from "@/components/site/anchor-link";
import { Button } from "@/components/ui/button";

// Home section 8: the closing call to action.
export function CtaBanner() {
  return (
    <section aria-labelledby="cta-title" className="px-4 py-20 sm:px-6 lg:px-8">
      <div className="relative mx-auto max-w-6xl overflow-hidden rounded-3xl bg-primary px-6 py-14 text-center text-primary-foreground shadow-xl sm:px-12">
        <div
          aria-hidden="true"
          className="absolute inset-0 bg-[radial-gradient(30rem_16rem_at_10%_0%,oklch(1_0_0/0.18),transparent),radial-gradient(24rem_14rem_at_90%_100%,oklch(1_0_0/0.12),transparent)]"
        />
        <div className="relative">
          <h2 id="cta-title" className="mx-auto max-w-3xl text-3xl font-bold sm:text-4xl">
            Ready to Supercharge Your B2B Lead Generation?
          </h2>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-primary-foreground/85">
            Pick a ready-made list and download it in minutes, or tell us exactly who you want to reach.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Button asChild size="lg" variant="secondary">
              <AnchorLink href="#packages">Explore Packages</AnchorLink>
            </Button>
            <Button
              asChild
              size="lg"
              variant="outline"
              className="border-primary-foreground/60 bg-transparent text-primary-foreground hover:bg-primary-foreground/10 hover:text-primary-foreground"
            >
              <AnchorLink href="#custom-request">Request Custom Leads</AnchorLink>
            </Button>
          </div>
          <p className="mt-6 text-sm text-primary-foreground/85">
            New to outbound?{" "}
            <a href="#" className="font-semibold text-primary-foreground underline underline-offset-4">
              Get our free lead generation guide
            </a>
          </p>
        </div>
      </div>
    </section>
  );
}
