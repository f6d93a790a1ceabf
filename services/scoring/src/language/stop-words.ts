/**
 * Words that carry no requirement on their own: function words, conversational fillers and
 * acknowledgements. Negations ("not", "no", "never") are here too: they are read as the scope they
 * put on the words after them (text-analysis.ts), not as content.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any anybody anyone anything are aren't as at
  be because been before being below between both but by can can't cannot could couldn't
  did didn't do does doesn't doing don't down during each either else even ever every few for from
  further get gets getting got had hadn't has hasn't have haven't having he he'd he'll he's her here
  here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its
  itself just let let's lets may me might mine more most much must mustn't my myself neither never no
  nor not now n't of off on once only or other others otherwise our ours ourselves out over own per
  quite rather really same shall shan't she she'd she'll she's should shouldn't so some somebody
  someone something such than that that's the their theirs them themselves then there there's these
  they they'd they'll they're they've this those though through thus to too toward towards under
  until up upon us very via was wasn't we we'd we'll we're we've were weren't what what's whatever
  when when's whenever where where's whereas whether which while who who's whoever whom whose why
  why's will with within without won't would wouldn't yet you you'd you'll you're you've your yours
  yourself yourselves
  ah aha alright eh er erm hm hmm huh mm mhm oh okay ok uh uh-huh um umm yeah yep yes yup
  well like gonna wanna gotta kinda sorta thing things stuff lot lots bit sure right
  already still ever even actually basically simply really quite somewhat rather`.split(/\s+/),
);

/** Tokens that negate what follows them (text-analysis.ts marks the scope). */
export const NEGATORS: ReadonlySet<string> = new Set(['no', 'not', "n't", 'never', 'nothing', 'none', 'nobody', 'nowhere', 'neither', 'nor', 'without', 'cannot']);
