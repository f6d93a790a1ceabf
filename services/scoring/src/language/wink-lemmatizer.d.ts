/** wink-lemmatizer ships no types: WordNet's morphological rules and exceptions, per part of speech. */
declare module 'wink-lemmatizer' {
  const winkLemmatizer: {
    lemmatizeNoun(word: string): string;
    lemmatizeVerb(word: string): string;
    lemmatizeAdjective(word: string): string;
  };
  export default winkLemmatizer;
}
